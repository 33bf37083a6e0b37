import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../drizzle/db';
import { GarbledAnswerError } from '../../drizzle/errors';
import { users } from '../../drizzle/schema';
import type { Language } from '../../shared/enums';
import type { Role } from '../../shared/roles';

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
  /** The screens' language the account starts with: the device's, where the account was made. */
  language?: Language | undefined;
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
      language: input.language ?? 'en',
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
  await db
    .update(users)
    .set({ passwordHash, mustChangePassword: false, updatedAt: now })
    .where(eq(users.id, userId));
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

// Built once per database handle: the SELECT is the same for every signed-in request.
const userById = new WeakMap<Db, ReturnType<typeof prepareUserById>>();

function prepareUserById(db: Db) {
  return db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('context_user_by_id');
}

/**
 * The signed-in user behind a request's token, read on every call (revocation is checked against it).
 * One row of this id or none: anything else is a garbled answer from the driver, never "signed out".
 */
export async function findSessionUser(db: Db, id: number) {
  let query = userById.get(db);
  if (!query) {
    query = prepareUserById(db);
    userById.set(db, query);
  }
  const found = await query.execute({ id });
  if (found.length > 1 || (found.length === 1 && found[0]?.id !== id)) throw new GarbledAnswerError();
  return found[0];
}
