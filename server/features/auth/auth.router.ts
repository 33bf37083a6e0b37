import { TRPCError } from '@trpc/server';
import { eq } from 'drizzle-orm';
import { users } from '../../../drizzle/schema';
import { MESSAGES } from '../../../shared/constants';
import {
  ZAuthResult,
  ZChangePasswordInput,
  ZLoginInput,
  ZRegisterInput,
  ZSessionUser,
} from '../../../shared/schemas/auth';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../auth/passwords';
import { assertNotBlocked, consume, RateLimitedError } from '../../auth/rate-limit';
import { appError } from '../../errors';
import { protectedProcedure, publicProcedure, router } from '../../trpc';
import { bumpTokenVersion, createUser, findUserByEmail, issueSession, sessionUser } from './auth.service';

function tooMany(err: RateLimitedError): TRPCError {
  return appError(
    'TOO_MANY_REQUESTS',
    MESSAGES.tooManyAttempts(Math.ceil(err.retryAfterSeconds / 60)),
    undefined,
    {
      'retry-after': String(err.retryAfterSeconds),
    },
  );
}

async function limited<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof RateLimitedError) throw tooMany(err);
    throw err;
  }
}

export const authRouter = router({
  login: publicProcedure
    .input(ZLoginInput)
    .output(ZAuthResult)
    .mutation(async ({ ctx, input }) => {
      const { limiters } = ctx.deps;
      await limited(async () => {
        await consume(limiters.loginPerIp, ctx.ip);
        await assertNotBlocked(limiters.loginPerAccount, input.email);
      });
      const user = await findUserByEmail(ctx.db, input.email);
      const ok = user
        ? await verifyPassword(user.passwordHash, input.password)
        : await burnPasswordCheck(input.password);
      if (!user || !ok) {
        // Failures count against the account; a success clears its counter.
        await limited(() => consume(limiters.loginPerAccount, input.email));
        throw new TRPCError({ code: 'UNAUTHORIZED', message: MESSAGES.invalidLogin });
      }
      if (user.disabledAt) throw new TRPCError({ code: 'FORBIDDEN', message: MESSAGES.accountDisabled });
      await limiters.loginPerAccount.delete(input.email).catch(() => undefined);
      return issueSession(ctx.deps.config, user);
    }),

  register: publicProcedure
    .input(ZRegisterInput)
    .output(ZAuthResult)
    .mutation(async ({ ctx, input }) => {
      await limited(() => consume(ctx.deps.limiters.registerPerIp, ctx.ip));
      const user = await createUser(ctx.db, { ...input, role: 'CUSTOMER' });
      return issueSession(ctx.deps.config, user);
    }),

  me: protectedProcedure.output(ZSessionUser).query(({ ctx }) => sessionUser(ctx.user)),

  /** Signs the user out on every device: all tokens issued so far stop working. */
  logoutAll: protectedProcedure.mutation(async ({ ctx }) => {
    await bumpTokenVersion(ctx.db, ctx.user.id);
    return { ok: true as const };
  }),

  changePassword: protectedProcedure
    .input(ZChangePasswordInput)
    .output(ZAuthResult)
    .mutation(async ({ ctx, input }) => {
      const user = await findUserByEmail(ctx.db, ctx.user.email);
      if (!user || !(await verifyPassword(user.passwordHash, input.currentPassword))) {
        throw appError('BAD_REQUEST', MESSAGES.currentPasswordWrong);
      }
      await ctx.db
        .update(users)
        .set({ passwordHash: await hashPassword(input.newPassword), updatedAt: ctx.now() })
        .where(eq(users.id, user.id));
      return issueSession(ctx.deps.config, await bumpTokenVersion(ctx.db, user.id));
    }),
});
