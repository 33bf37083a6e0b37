/**
 * tRPC builders, in the create-t3-app layout:
 * 1. initialisation (context type, error shape);
 * 2. the procedures every router builds on — deny by default: a procedure is either role-gated or on
 *    PUBLIC_PROCEDURES, and server/trpc.access.test.ts walks the router to prove it.
 */
import { initTRPC, TRPCError } from '@trpc/server';
import { MESSAGES } from '../shared/constants';
import { ROLES, type Role } from '../shared/roles';
import type { Context, CtxUser } from './context';
import { ErrorDetails, publicMessage } from './errors';

// 1. INITIALISATION

export interface Meta {
  /** The roles allowed to call; absent only for public procedures. */
  roles?: readonly Role[];
}

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
] as const;

export const publicProcedure = t.procedure;

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
export const protectedProcedure = t.procedure.meta({ roles: ROLES }).use(isAuthed);

export function roleProcedure(...roles: Role[]) {
  return t.procedure
    .meta({ roles })
    .use(isAuthed)
    .use(({ ctx, next }) => {
      if (!roles.includes(ctx.user.role))
        throw new TRPCError({ code: 'FORBIDDEN', message: MESSAGES.forbidden });
      return next();
    });
}
