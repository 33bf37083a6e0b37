import { TRPCError } from '@trpc/server';
import type { DbOrTx } from '../../../drizzle/db';
import { MESSAGES } from '../../../shared/constants';
import type { Role } from '../../../shared/roles';
import type { TAuthResult, TLoginInput, TRegisterInput, TSessionUser } from '../../../shared/schemas/auth';
import type { Settings } from '../../../shared/settings';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../auth/passwords';
import {
  consume,
  forget,
  giveBack,
  type LimitCheck,
  type Limiters,
  limited,
  reserve,
} from '../../auth/rate-limit';
import { signToken } from '../../auth/tokens';
import { type CtxUser, toCtxUser } from '../../context';
import { appError } from '../../errors';
import {
  anyAdmin,
  bumpTokenVersion,
  findUserByEmail,
  insertUser,
  promoteToAdmin,
  setPasswordHash,
  setUserLanguage,
  type UserRow,
} from './auth.queries';

export type { UserRow } from './auth.queries';

export function sessionUser(user: CtxUser | UserRow): TSessionUser {
  return {
    id: user.id,
    role: user.role,
    name: user.name,
    email: user.email,
    phone: user.phone ?? null,
    driverId: user.driverId ?? null,
    language: user.language ?? 'en',
  };
}

/** Remembers the screens' language on the signed-in user's account (returned at the next sign-in). */
export async function setLanguage(db: DbOrTx, user: CtxUser, language: 'en' | 'sw'): Promise<TSessionUser> {
  const row = await setUserLanguage(db, user.id, language);
  return sessionUser(row ? toCtxUser(row) : { ...user, language });
}

export async function issueSession(config: Settings, user: UserRow): Promise<TAuthResult> {
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

/**
 * Inserts a user whose password is already hashed; an email already registered is a 409. Hash first
 * (hashPassword, ~23 ms) and call this inside the transaction, so no transaction waits on argon2.
 */
export async function insertNewUser(
  db: DbOrTx,
  input: Omit<NewUser, 'password'> & { passwordHash: string },
): Promise<UserRow> {
  const row = await insertUser(db, input);
  if (!row) throw appError('CONFLICT', MESSAGES.emailTaken);
  return row;
}

export async function createUser(db: DbOrTx, input: NewUser): Promise<UserRow> {
  return insertNewUser(db, { ...input, passwordHash: await hashPassword(input.password) });
}

/**
 * Only failures count: a point is reserved from each sign-in limit before the password is checked (so
 * racing guesses cannot slip past) and a success gives it back. Per address and per account-and-address
 * lock a guesser out; the per-account ceiling is higher, so one attacker's failures do not lock the owner
 * out everywhere. A disabled account answers exactly like a wrong password (no oracle for either).
 */
export async function login(
  db: DbOrTx,
  limiters: Limiters,
  settings: Settings,
  ip: string,
  input: TLoginInput,
): Promise<TAuthResult> {
  const perIp: LimitCheck = [limiters.loginPerIp, ip];
  const perAccountIp: LimitCheck = [limiters.loginPerAccountIp, `${input.email}|${ip}`];
  const perAccount: LimitCheck = [limiters.loginPerAccount, input.email];
  await limited(() => reserve([perIp, perAccountIp, perAccount]));
  const user = await findUserByEmail(db, input.email);
  const ok = user
    ? await verifyPassword(user.passwordHash, input.password)
    : await burnPasswordCheck(input.password);
  if (!user || !ok || user.disabledAt) {
    throw new TRPCError({ code: 'UNAUTHORIZED', message: MESSAGES.invalidLogin });
  }
  await Promise.all([giveBack([perIp, perAccount]), forget([perAccountIp])]);
  return issueSession(settings, user);
}

/** Registration only ever creates a CUSTOMER. */
export async function register(
  db: DbOrTx,
  limiters: Limiters,
  settings: Settings,
  ip: string,
  input: TRegisterInput,
): Promise<TAuthResult> {
  await limited(() => consume(limiters.registerPerIp, ip));
  const user = await createUser(db, { ...input, role: 'CUSTOMER' });
  return issueSession(settings, user);
}

/** Revokes every token the user holds by moving their token version on. */
export async function revokeSessions(db: DbOrTx, userId: number): Promise<UserRow> {
  const row = await bumpTokenVersion(db, userId);
  if (!row) throw appError('NOT_FOUND', 'User not found.');
  return row;
}

export async function logoutEverywhere(db: DbOrTx, user: CtxUser): Promise<{ ok: true }> {
  await revokeSessions(db, user.id);
  return { ok: true };
}

/** A new password revokes every other session; the answer is a fresh one. Wrong current passwords are limited. */
export async function changePassword(
  db: DbOrTx,
  limiters: Limiters,
  settings: Settings,
  user: CtxUser,
  input: { currentPassword: string; newPassword: string },
  now: Date,
): Promise<TAuthResult> {
  const guesses: LimitCheck = [limiters.passwordPerUser, String(user.id)];
  await limited(() => reserve([guesses]));
  const row = await findUserByEmail(db, user.email);
  if (!row || !(await verifyPassword(row.passwordHash, input.currentPassword))) {
    throw appError('BAD_REQUEST', MESSAGES.currentPasswordWrong);
  }
  await forget([guesses]);
  await setPasswordHash(db, row.id, await hashPassword(input.newPassword), now);
  return issueSession(settings, await revokeSessions(db, row.id));
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
    await promoteToAdmin(db, existing.id);
    return { created: false, promoted: true };
  }
  await createUser(db, { name: 'Admin', email, phone: '', password, role: 'ADMIN' });
  return { created: true, promoted: false };
}

export function adminExists(db: DbOrTx): Promise<boolean> {
  return anyAdmin(db);
}
