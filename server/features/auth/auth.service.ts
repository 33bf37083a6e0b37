import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../drizzle/db';
import { drivers, users } from '../../../drizzle/schema';
import { MESSAGES } from '../../../shared/constants';
import type { Role } from '../../../shared/roles';
import type { TAuthResult, TSessionUser } from '../../../shared/schemas/auth';
import { hashPassword } from '../../auth/passwords';
import { signToken } from '../../auth/tokens';
import type { Config } from '../../config';
import { type CtxUser, toCtxUser } from '../../context';
import { appError } from '../../errors';

export type UserRow = typeof users.$inferSelect;

export function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  return db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1)
    .then((rows) => rows[0]);
}

export function sessionUser(user: CtxUser | UserRow): TSessionUser {
  return {
    id: user.id,
    role: user.role,
    name: user.name,
    email: user.email,
    phone: user.phone ?? null,
    driverId: user.driverId ?? null,
  };
}

export async function issueSession(config: Config, user: UserRow): Promise<TAuthResult> {
  const token = await signToken(
    { userId: user.id, role: user.role, version: user.tokenVersion },
    config.jwtSecret,
    config.tokenTtl,
  );
  return { token, user: sessionUser(toCtxUser(user)) };
}

export interface NewUser {
  name: string;
  email: string;
  phone: string;
  password: string;
  role: Role;
  driverId?: string | null;
}

/** Inserts a user; an email already registered is a 409 (checked by the unique index, so races agree). */
export async function createUser(db: DbOrTx, input: NewUser): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password);
  const inserted = await db
    .insert(users)
    .values({
      name: input.name,
      email: input.email.toLowerCase(),
      phone: input.phone || null,
      role: input.role,
      driverId: input.driverId ?? null,
      passwordHash,
    })
    .onConflictDoNothing()
    .returning();
  const row = inserted[0];
  if (!row) throw appError('CONFLICT', MESSAGES.emailTaken);
  return row;
}

/** Revokes every token the user holds by moving their token version on. */
export async function bumpTokenVersion(db: DbOrTx, userId: number): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  if (!row) throw appError('NOT_FOUND', 'User not found.');
  return row;
}

/** Start-up: make sure the configured ADMIN exists. The password is only used when creating it. */
export async function ensureAdmin(
  db: DbOrTx,
  email: string,
  password: string,
): Promise<{ created: boolean; promoted: boolean }> {
  const existing = await findUserByEmail(db, email);
  if (existing) {
    if (existing.role === 'ADMIN' && !existing.disabledAt) return { created: false, promoted: false };
    await db
      .update(users)
      .set({ role: 'ADMIN', disabledAt: null, updatedAt: new Date() })
      .where(eq(users.id, existing.id));
    return { created: false, promoted: true };
  }
  await createUser(db, { name: 'Admin', email, phone: '', password, role: 'ADMIN' });
  return { created: true, promoted: false };
}

export async function adminExists(db: DbOrTx): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.role, 'ADMIN')).limit(1);
  return rows.length > 0;
}

/** A DRIVER account needs a driver profile; one is created from the account's details when new. */
export async function ensureDriverProfile(
  db: DbOrTx,
  driverId: string,
  details: { name: string; email: string; phone: string },
): Promise<void> {
  await db
    .insert(drivers)
    .values({ id: driverId, name: details.name, email: details.email || null, phone: details.phone || null })
    .onConflictDoNothing();
}
