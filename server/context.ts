import { eq } from 'drizzle-orm';
import type { Database, Db } from '../drizzle/db';
import { users } from '../drizzle/schema';
import type { JobQueue } from '../shared/jobs';
import type { Role } from '../shared/roles';
import type { Limiters } from './auth/rate-limit';
import { verifyToken } from './auth/tokens';
import type { Config } from './config';

export interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/** Everything the app is built from; tests pass their own (PGlite, in-process jobs, a fixed clock). */
export interface AppDeps {
  database: Database;
  config: Config;
  jobs: JobQueue;
  limiters: Limiters;
  log: Logger;
  now?: () => Date;
}

export interface CtxUser {
  id: number;
  role: Role;
  name: string;
  email: string;
  phone: string | null;
  driverId: string | null;
}

export type AuthProblem = 'expired' | 'invalid' | 'revoked' | 'disabled';

/** The inner context: what procedures use. REST routes and tests build it without any HTTP. */
export interface Context {
  deps: AppDeps;
  db: Db;
  user: CtxUser | null;
  authProblem: AuthProblem | null;
  ip: string;
  now: () => Date;
}

export function createInnerContext(deps: AppDeps, user: CtxUser | null = null, ip = '127.0.0.1'): Context {
  return {
    deps,
    db: deps.database.db,
    user,
    authProblem: null,
    ip,
    now: deps.now ?? (() => new Date()),
  };
}

/** Resolves the bearer token of a request into the signed-in user, checking revocation on every call. */
export async function createRequestContext(
  deps: AppDeps,
  request: { headers: { authorization?: string | undefined }; ip: string },
): Promise<Context> {
  const ctx = createInnerContext(deps, null, request.ip);
  const header = request.headers.authorization;
  if (!header) return ctx;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) return { ...ctx, authProblem: 'invalid' };
  const verified = await verifyToken(match[1]!, deps.config.jwtSecret);
  if (!verified.ok) return { ...ctx, authProblem: verified.reason };
  const [row] = await deps.database.db
    .select()
    .from(users)
    .where(eq(users.id, verified.claims.userId))
    .limit(1);
  if (!row || row.tokenVersion !== verified.claims.version) return { ...ctx, authProblem: 'revoked' };
  if (row.disabledAt) return { ...ctx, authProblem: 'disabled' };
  return { ...ctx, user: toCtxUser(row) };
}

export function toCtxUser(row: typeof users.$inferSelect): CtxUser {
  return {
    id: row.id,
    role: row.role,
    name: row.name,
    email: row.email,
    phone: row.phone,
    driverId: row.driverId,
  };
}
