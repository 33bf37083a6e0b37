import type {} from '@fastify/cookie';
import type { FastifyReply } from 'fastify';
import { type CtxUser, toCtxUser } from '../core/access/actor';
import { findSessionUser } from '../core/auth/auth.queries';
import type { Limiters } from '../core/auth/rate-limit';
import { verifyToken } from '../core/auth/tokens';
import type { Database, Db } from '../drizzle/db';
import type { Llm } from '../shared/ai/llm';
import type { JobQueue } from '../shared/jobs';
import type { Logger } from '../shared/logger';
import type { Settings } from '../shared/settings';

/** Everything the app is built from; tests pass their own (PGlite, in-process jobs, a fixed clock). */
export interface AppDeps {
  database: Database;
  settings: Settings;
  jobs: JobQueue;
  limiters: Limiters;
  log: Logger;
  /** The OpenAI-compatible client when configured (built once at start); null means rule answers. */
  llm: Llm | null;
  now?: () => Date;
}

export type { CtxUser };

export type AuthProblem = 'expired' | 'invalid' | 'revoked' | 'disabled';

export interface CookieOptions {
  path: string;
  maxAge: number;
  httpOnly: boolean;
  sameSite: 'strict' | 'lax';
}

/** Sets a cookie on the HTTP answer; Secure whenever the request came over https. */
export type SetCookie = (name: string, value: string, options: CookieOptions) => void;

/** The inner context: what procedures use. REST routes and tests build it without any HTTP. */
export interface Context {
  deps: AppDeps;
  db: Db;
  user: CtxUser | null;
  authProblem: AuthProblem | null;
  ip: string;
  /** The request's User-Agent (the action log records it); absent without HTTP. */
  userAgent?: string;
  now: () => Date;
  /** Present when the call came over HTTP (tRPC or REST); callers without HTTP have no answer to set it on. */
  setCookie?: SetCookie;
  /** The request's `Idempotency-Key` header, used by procedures marked `idempotent` (server/idempotency.ts). */
  idempotencyKey?: string;
  /** The request's cookies (sign-in reads its device cookie); absent without HTTP. */
  cookies?: Record<string, string | undefined>;
}

export function createInnerContext(deps: AppDeps, user: CtxUser | null = null, ip = '127.0.0.1'): Context {
  return {
    deps,
    db: deps.database.db,
    user,
    authProblem: null,
    ip,
    now: deps.now ?? newDate,
  };
}

/**
 * Resolves the bearer token of a request into the signed-in user, checking revocation on every call.
 * An anonymous request costs one small object: no token check, no database.
 */
export async function createRequestContext(
  deps: AppDeps,
  request: {
    headers: {
      authorization?: string | undefined;
      'idempotency-key'?: string | string[] | undefined;
      'user-agent'?: string | undefined;
    };
    ip: string;
    cookies?: Record<string, string | undefined>;
  },
  reply?: FastifyReply,
): Promise<Context> {
  const ctx: Context = {
    deps,
    db: deps.database.db,
    user: null,
    authProblem: null,
    ip: request.ip,
    now: deps.now ?? newDate,
  };
  const userAgent = request.headers['user-agent'];
  if (userAgent) ctx.userAgent = userAgent.slice(0, 500);
  const idempotencyKey = request.headers['idempotency-key'];
  if (idempotencyKey !== undefined)
    ctx.idempotencyKey = Array.isArray(idempotencyKey) ? idempotencyKey.join(',') : idempotencyKey;
  if (request.cookies) ctx.cookies = request.cookies;
  if (reply)
    ctx.setCookie = (name, value, options) =>
      void reply.setCookie(name, value, { ...options, secure: 'auto' });
  const header = request.headers.authorization;
  if (!header) return ctx;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) {
    ctx.authProblem = 'invalid';
    return ctx;
  }
  const verified = await verifyToken(match[1]!, deps.settings.jwtSecret);
  if (!verified.ok) {
    ctx.authProblem = verified.reason;
    return ctx;
  }
  const row = await findSessionUser(deps.database.db, verified.claims.userId);
  if (!row || row.tokenVersion !== verified.claims.version) ctx.authProblem = 'revoked';
  else if (row.disabledAt) ctx.authProblem = 'disabled';
  else ctx.user = toCtxUser(row);
  return ctx;
}

const newDate = () => new Date();
