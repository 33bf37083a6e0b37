import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../drizzle/db';
import { users } from '../../../drizzle/schema';
import type { Role } from '../../../shared/roles';

export type UserRow = typeof users.$inferSelect;

export function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  return db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1)
    .then((rows) => rows[0]);
}

export interface UserValues {
  name: string;
  email: string;
  phone: string;
  role: Role;
  driverId?: string | null;
  passwordHash: string;
}

/** The new user, or undefined when the email is taken (the unique index decides, so racing requests agree). */
export async function insertUser(db: DbOrTx, input: UserValues): Promise<UserRow | undefined> {
  const [row] = await db
    .insert(users)
    .values({
      name: input.name,
      email: input.email.toLowerCase(),
      phone: input.phone || null,
      role: input.role,
      driverId: input.driverId ?? null,
      passwordHash: input.passwordHash,
    })
    .onConflictDoNothing()
    .returning();
  return row;
}

export async function bumpTokenVersion(db: DbOrTx, userId: number): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  return row;
}

export async function setPasswordHash(db: DbOrTx, userId: number, passwordHash: string, now: Date) {
  await db.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
}

/** Makes an account an active ADMIN (start-up's configured admin). */
export async function promoteToAdmin(db: DbOrTx, userId: number) {
  await db
    .update(users)
    .set({ role: 'ADMIN', disabledAt: null, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

export async function anyAdmin(db: DbOrTx): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.role, 'ADMIN')).limit(1);
  return rows.length > 0;
}

export async function setUserLanguage(
  db: DbOrTx,
  userId: number,
  language: 'en' | 'sw',
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ language, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  return row;
}
