/**
 * tRPC builders, in the create-t3-app layout:
 * 1. initialisation (context type, error shape);
 * 2. the procedures every router builds on — deny by default: a procedure is either role-gated or on
 *    PUBLIC_PROCEDURES, and server/trpc.access.test.ts walks the router to prove it.
 */
import { initTRPC, TRPCError } from '@trpc/server';
import type { z } from 'zod';
import { isDatabaseUnavailable } from '../drizzle/errors';
import { MESSAGES } from '../shared/constants';
import { JobTransportUnavailableError } from '../shared/jobs';
import { ROLES, type Role } from '../shared/roles';
import type { Context, CtxUser } from './context';
import { ErrorDetails, publicMessage } from './errors';

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
  'auth.login',
  'auth.register',
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

/** The 503 a failed call answers when its cause is a dependency away; undefined for any other failure. */
export function dependencyUnavailable(cause: unknown): TRPCError | undefined {
  if (isDatabaseUnavailable(cause))
    return new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: MESSAGES.databaseUnavailable, cause });
  if (cause instanceof JobTransportUnavailableError)
    return new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: cause.message, cause });
  return undefined;
}

/**
 * Every procedure runs under this guard: the database being unreachable (a connection cut, a statement
 * time-out) or the job queue being down answers 503 with a message, never 500 — over /trpc and REST.
 * Exported as the function itself: the REST adapter recognises a chain that holds nothing else.
 */
export const guardDependencies: Parameters<typeof t.middleware>[0] = async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const unavailable = dependencyUnavailable(result.error.cause ?? result.error);
    if (unavailable) throw unavailable;
  }
  return result;
};

const baseProcedure = t.procedure.use(guardDependencies);

export const publicProcedure = baseProcedure;

const isAuthed = t.middleware(({ ctx, next }) => {
  if (!ctx.user) {
    const message =
      ctx.authProblem === 'expired' || ctx.authProblem === 'revoked'
        ? MESSAGES.sessionExpired
        : ctx.authProblem === 'disabled'
          ? MESSAGES.accountDisabled
          : MESSAGES.signInRequired;
    throw new TRPCError({ code: 'UNAUTHORIZED', message });
  }
  return next({ ctx: { ...ctx, user: ctx.user as CtxUser } });
});

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
