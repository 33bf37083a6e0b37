import type { DbOrTx } from '../../drizzle/db';
import { MESSAGES } from '../../shared/constants';
import { REDACTED } from '../../shared/domain/activity';
import type { Language } from '../../shared/enums';
import type { Role } from '../../shared/roles';
import type { TAuthResult, TLoginInput, TRegisterInput, TSessionUser } from '../../shared/schemas/auth';
import type { Settings } from '../../shared/settings';
import { type CtxUser, toCtxUser } from '../access/actor';
import { recordChange } from '../activity/activity';
import { appError } from '../errors';
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
import { deviceToken, knownDevice } from './device';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords';
import {
  consume,
  forget,
  giveBack,
  LIMIT_RULES,
  type LimitCheck,
  type Limiters,
  limited,
  remember,
  remembered,
  reserve,
  takeEach,
  tooManyAttempts,
} from './rate-limit';
import { signToken } from './tokens';

export type { UserRow } from './auth.queries';

/** What the action log shows of an account (never its hash or token version). */
export function userView(row: UserRow): Record<string, unknown> {
  return {
    name: row.name,
    email: row.email,
    phone: row.phone,
    role: row.role,
    driverId: row.driverId,
    language: row.language,
    disabled: row.disabledAt !== null,
    mustChangePassword: row.mustChangePassword,
  };
}

export const actorOf = (row: Pick<UserRow, 'id' | 'name' | 'role'>) => ({
  id: row.id,
  name: row.name,
  role: row.role,
});

export function sessionUser(user: CtxUser | UserRow): TSessionUser {
  return {
    id: user.id,
    role: user.role,
    name: user.name,
    email: user.email,
    phone: user.phone ?? null,
    driverId: user.driverId ?? null,
    language: user.language ?? 'en',
    mustChangePassword: user.mustChangePassword ?? false,
  };
}

/** Remembers the screens' language on the signed-in user's account (returned at the next sign-in). */
export async function setLanguage(db: DbOrTx, user: CtxUser, language: 'en' | 'sw'): Promise<TSessionUser> {
  return db.transaction(async (tx) => {
    const row = await setUserLanguage(tx, user.id, language);
    await recordChange(tx, {
      entity: 'user',
      entityId: user.id,
      changes: user.language === language ? {} : { language: { from: user.language ?? 'en', to: language } },
    });
    return sessionUser(row ? toCtxUser(row) : { ...user, language });
  });
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
  language?: Language | undefined;
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

/** A customer's own account, logged as made by themselves. */
async function registerUser(db: DbOrTx, input: NewUser): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const row = await insertNewUser(tx, { ...input, passwordHash });
    await recordChange(tx, { entity: 'user', entityId: row.id, after: userView(row), actor: actorOf(row) });
    return row;
  });
}

/**
 * Only failures count: a point is reserved from each sign-in limit before the password is checked (so
 * racing guesses cannot slip past) and a success gives it back; an attempt whose check could not run (the
 * database away) counts nothing. Per address and per account-and-address lock a guesser out. The
 * per-account ceiling (failures from anywhere) slows and never locks the owner out: a browser that signed
 * in to the account before (its device cookie) has a limit of its own and is not held by the ceiling, nor
 * is an address the account signed in from before; anyone else past the ceiling gets loginPerAccountSlow's
 * attempts. A disabled account answers exactly like a wrong password (no oracle for either).
 */
export async function login(
  db: DbOrTx,
  limiters: Limiters,
  settings: Settings,
  ip: string,
  input: TLoginInput,
  deviceCookie?: string,
): Promise<{ session: TAuthResult; deviceCookie: string }> {
  const email = input.email.toLowerCase();
  // Read first: a database that cannot answer is a 503 with nothing counted.
  const user = await findUserByEmail(db, email);
  const device = user ? await knownDevice(deviceCookie, user, settings.jwtSecret) : undefined;
  const address: LimitCheck = [limiters.knownSignIns, `${email}|${ip}`];
  const perAccount: LimitCheck = [limiters.loginPerAccount, email];
  const checks: LimitCheck[] = device
    ? [[limiters.loginPerAccountDevice, `${email}|${device}`]]
    : [[limiters.loginPerIp, ip], [limiters.loginPerAccountIp, `${email}|${ip}`], perAccount];
  const [{ taken, refused }, knownAddress] = await Promise.all([
    takeEach(checks),
    device ? true : remembered(address),
  ]);
  if (refused.length > 0) {
    const onlyCeiling = refused.every((r) => r.check === perAccount);
    const slowLane =
      onlyCeiling && !knownAddress ? await takeEach([[limiters.loginPerAccountSlow, email]]) : null;
    if (!onlyCeiling || (slowLane && slowLane.refused.length > 0)) {
      await giveBack(taken);
      // The ceiling itself never makes anyone wait its 15 minutes: only the limit that did refuse.
      const waits = onlyCeiling ? (slowLane?.refused ?? []) : refused.filter((r) => r.check !== perAccount);
      throw tooManyAttempts(Math.max(...waits.map((r) => r.waitSeconds)));
    }
    if (slowLane) taken.push(...slowLane.taken);
  }
  let ok: boolean;
  try {
    ok = user
      ? await verifyPassword(user.passwordHash, input.password)
      : await burnPasswordCheck(input.password);
  } catch (err) {
    await giveBack(taken);
    throw err;
  }
  if (!user || !ok || user.disabledAt) {
    // Its own statement: the refusal below must not take the entry with it.
    await recordChange(db, {
      action: 'auth.signInFailed',
      entity: 'user',
      entityId: user?.id ?? null,
      actor: user ? actorOf(user) : null,
      changes: { email: { from: null, to: email } },
    });
    throw appError('UNAUTHORIZED', MESSAGES.invalidLogin);
  }
  await recordChange(db, {
    action: 'auth.signIn',
    entity: 'user',
    entityId: user.id,
    actor: actorOf(user),
    changes: {},
  });
  await Promise.all([
    giveBack(
      taken.filter(
        ([limiter]) => limiter !== limiters.loginPerAccountIp && limiter !== limiters.loginPerAccountDevice,
      ),
    ),
    forget(
      taken.filter(
        ([limiter]) => limiter === limiters.loginPerAccountIp || limiter === limiters.loginPerAccountDevice,
      ),
    ),
    remember(address, LIMIT_RULES.knownSignIns.duration),
  ]);
  return {
    session: await issueSession(settings, user),
    deviceCookie: await deviceToken(user, settings.jwtSecret, device),
  };
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
  const user = await registerUser(db, { ...input, role: 'CUSTOMER' });
  return issueSession(settings, user);
}

/** Revokes every token the user holds by moving their token version on. */
export async function revokeSessions(db: DbOrTx, userId: number): Promise<UserRow> {
  const row = await bumpTokenVersion(db, userId);
  if (!row) throw appError('NOT_FOUND', 'User not found.');
  return row;
}

export async function logoutEverywhere(db: DbOrTx, user: CtxUser): Promise<{ ok: true }> {
  await db.transaction(async (tx) => {
    await revokeSessions(tx, user.id);
    await recordChange(tx, {
      entity: 'user',
      entityId: user.id,
      changes: { sessions: { from: 'signed in', to: 'signed out everywhere' } },
    });
  });
  return { ok: true };
}

/**
 * Signing out of this device. Sessions are bearer tokens the device deletes; what the server keeps is the
 * record that it happened.
 */
export async function logout(db: DbOrTx, user: CtxUser): Promise<{ ok: true }> {
  await db.transaction((tx) =>
    recordChange(tx, { action: 'auth.signOut', entity: 'user', entityId: user.id, changes: {} }),
  );
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
  const passwordHash = await hashPassword(input.newPassword);
  const revoked = await db.transaction(async (tx) => {
    await setPasswordHash(tx, row.id, passwordHash, now);
    const after = await revokeSessions(tx, row.id);
    await recordChange(tx, {
      entity: 'user',
      entityId: row.id,
      changes: {
        password: { from: REDACTED, to: REDACTED },
        ...(row.mustChangePassword ? { mustChangePassword: { from: true, to: false } } : {}),
        sessions: { from: 'signed in', to: 'other sessions signed out' },
      },
    });
    return after;
  });
  return issueSession(settings, revoked);
}

/**
 * Start-up: make sure the configured ADMIN exists. The password is only used when creating it. Servers
 * starting together on an empty database race to create it: the unique email decides, and the others
 * find the account it made (idempotent; no start-up fails on it).
 */
export async function ensureAdmin(
  db: DbOrTx,
  email: string,
  password: string,
): Promise<{ created: boolean; promoted: boolean }> {
  let existing = await findUserByEmail(db, email);
  if (!existing) {
    const passwordHash = await hashPassword(password);
    const made = await insertUser(db, { name: 'Admin', email, phone: '', role: 'ADMIN', passwordHash });
    if (made) return { created: true, promoted: false };
    existing = await findUserByEmail(db, email);
    if (!existing) throw new Error(`The ADMIN account ${email} could neither be created nor found.`);
  }
  if (existing.role === 'ADMIN' && !existing.disabledAt) return { created: false, promoted: false };
  await promoteToAdmin(db, existing.id);
  return { created: false, promoted: true };
}

export function adminExists(db: DbOrTx): Promise<boolean> {
  return anyAdmin(db);
}
