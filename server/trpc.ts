/**
 * tRPC builders, in the create-t3-app layout:
 * 1. initialisation (context type, error shape);
 * 2. the procedures every router builds on — deny by default: a procedure is either role-gated or on
 *    PUBLIC_PROCEDURES, and server/trpc.access.test.ts walks the router to prove it.
 */
import { initTRPC, TRPCError } from '@trpc/server';
import type { z } from 'zod';
import { currentActivityScope, inActivityScope } from '../core/activity/activity';
import { AppError } from '../core/errors';
import { isDatabaseUnavailable } from '../drizzle/errors';
import { MESSAGES } from '../shared/constants';
import { JobTransportUnavailableError } from '../shared/jobs';
import { ROLES, type Role } from '../shared/roles';
import type { Context, CtxUser } from './context';
import { ErrorDetails, fromAppError, publicMessage } from './errors';

// 1. INITIALISATION

export type RestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** The 4xx answers an operation documents beyond those derived from its shape (see server/openapi.ts). */
export type RestErrorStatus = 404 | 409 | 413 | 429;

/** How the REST API exposes a procedure; the REST routes and the OpenAPI document are generated from it. */
export interface RestMeta {
  method: RestMethod;
  /** Fastify path syntax; `:id` segments are merged into the input (and documented only in the path). */
  path: string;
  summary: string;
  /** Success status (200 by default). */
  status?: number;
  /** The success status chosen from the result (health answers 503 when the database is down). */
  statusOf?: (result: unknown) => number;
  /** Body limit in bytes for this call (image uploads as data URLs); the app default otherwise. */
  bodyLimit?: number;
  errors?: readonly RestErrorStatus[];
  /** Its 409 is the duplicate answer (`DuplicateConflict`: resend with overrideDuplicate and duplicateOf). */
  duplicateConflict?: true;
  /** Its 409 may be the unpaid-order answer (`UnpaidConflict`: resend with confirmUnpaid as ADMIN). */
  unpaidConflict?: true;
  /** A GET whose answer carries an ETag; a matching If-None-Match answers 304 without a body. */
  etag?: true;
  /**
   * The answer's schema for a procedure without `.output()`: an answer the server builds from typed data
   * on a hot path is documented here and not parsed again on every call (its test holds it to the
   * schema, strictly).
   */
  output?: z.ZodType;
  /** One example request: the JSON body, or the query of a GET (path parameters included). */
  example?: Record<string, unknown>;
}

export interface Meta {
  /** The roles allowed to call; absent only for public procedures. */
  roles?: readonly Role[];
  /** Takes an `Idempotency-Key`: use `.use(idempotent)` after `.input()` (server/idempotency.ts). */
  idempotent?: true;
  rest?: RestMeta;
}

/** Calls per tRPC batch request; the client's batch link sends no more (client/trpc.ts). */
export const TRPC_MAX_BATCH = 10;

/** Data URLs of photos (5 MB each after decoding) need more than the default body limit. */
export const IMAGE_BODY_LIMIT = 8 * 1024 * 1024;

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      const details = error.cause instanceof ErrorDetails ? error.cause.body : undefined;
      return {
        ...shape,
        message: publicMessage(error),
        data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path, details },
      };
    },
  });

export const router = t.router;
export const middleware = t.middleware;
export const createCallerFactory = t.createCallerFactory;

// 2. PROCEDURES

/** Procedures anyone may call, by path. Adding one here is a decision: keep it short. */
export const PUBLIC_PROCEDURES = [
  'system.health',
  'system.livez',
  'system.readyz',
  'auth.login',
  'auth.register',
  'auth.passwordOptions',
  // Forgotten passwords: the same answer for any address, limited; the e-mailed token is the permission.
  'auth.requestPasswordReset',
  'auth.confirmPasswordReset',
  'pricing.get',
  'pricing.quote',
  'orders.createGuest',
  'articles.list',
  'chatbot.ask',
  // The customer's tracking link: the unguessable token is the permission.
  'tracking.get',
  // M-Pesa: what the screens may offer; a guest pays with the order's paymentToken (checked in the service).
  'mpesa.options',
  'mpesa.stkPush',
  'mpesa.stkStatus',
] as const;

/**
 * What a failed call answers when its cause is known: a use case's refusal (core's AppError) as its own
 * code and message, a dependency away as 503; undefined for any other failure (a 500).
 */
export function knownFailure(cause: unknown): TRPCError | undefined {
  if (cause instanceof AppError) return fromAppError(cause);
  if (isDatabaseUnavailable(cause))
    return new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: MESSAGES.databaseUnavailable, cause });
  if (cause instanceof JobTransportUnavailableError)
    return new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: cause.message, cause });
  return undefined;
}

/**
 * Every procedure runs under this guard: a use case's refusal becomes its 4xx, and the database being
 * unreachable (a connection cut, a statement time-out) or the job queue being down answers 503 with a
 * message, never 500 — over /trpc and REST.
 * Exported as the function itself: the REST adapter recognises a chain that holds nothing else.
 */
export const guardDependencies: Parameters<typeof t.middleware>[0] = async ({ ctx, type, path, next }) => {
  const result = type === 'mutation' ? await withActivity(ctx, path, next) : await next();
  if (!result.ok) {
    const known = knownFailure(result.error.cause ?? result.error);
    if (known) throw known;
  }
  return result;
};

/**
 * Every mutation runs in an activity scope (core/activity): who is acting, from where, through which
 * procedure. The use case writes the entry in its own transaction; a signed-in user's mutation that
 * succeeded without one is reported here (and fails server/activity.test.ts).
 */
async function withActivity<R extends { ok: boolean }>(ctx: Context, path: string, next: () => Promise<R>) {
  const user = ctx.user;
  return inActivityScope(
    {
      actor: user ? { id: user.id, name: user.name, role: user.role } : null,
      procedure: path,
      ip: ctx.ip,
      userAgent: ctx.userAgent ?? null,
    },
    async () => {
      const result = await next();
      const scope = currentActivityScope();
      if (result.ok && user && scope && scope.recorded === 0 && !scope.unchanged)
        ctx.deps.log.error({ procedure: path }, 'a mutation wrote no action log entry');
      return result;
    },
  );
}

const baseProcedure = t.procedure.use(guardDependencies);

export const publicProcedure = baseProcedure;

const isAuthed = t.middleware(({ ctx, path, next }) => {
  if (!ctx.user) {
    const message =
      ctx.authProblem === 'expired' || ctx.authProblem === 'revoked'
        ? MESSAGES.sessionExpired
        : ctx.authProblem === 'disabled'
          ? MESSAGES.accountDisabled
          : MESSAGES.signInRequired;
    // Why the sent token no longer works: after `revoked` (signed out everywhere, a new password) and
    // `disabled` the device deletes what it kept of this user (client/session.ts).
    throw new TRPCError({
      code: 'UNAUTHORIZED',
      message,
      ...(ctx.authProblem ? { cause: new ErrorDetails({ reason: ctx.authProblem }) } : {}),
    });
  }
  // A one-time password from an ADMIN opens only the password screen's calls until it is changed.
  if (ctx.user.mustChangePassword && !WHILE_CHANGING_PASSWORD.has(path))
    throw new TRPCError({ code: 'FORBIDDEN', message: MESSAGES.mustChangePassword });
  return next({ ctx: { ...ctx, user: ctx.user as CtxUser } });
});

/** What a user signed in with a one-time password may call before choosing a new one. */
const WHILE_CHANGING_PASSWORD = new Set([
  'auth.me',
  'auth.changePassword',
  'auth.logout',
  'auth.logoutAll',
  'auth.setLanguage',
]);

/** Any signed-in user, whatever the role. Row scoping (own orders, own driver) is the query's job. */
export const protectedProcedure = baseProcedure.meta({ roles: ROLES }).use(isAuthed);

export function roleProcedure(...roles: Role[]) {
  return baseProcedure
    .meta({ roles })
    .use(isAuthed)
    .use(({ ctx, next }) => {
      if (!roles.includes(ctx.user.role))
        throw new TRPCError({ code: 'FORBIDDEN', message: MESSAGES.forbidden });
      return next();
    });
}
