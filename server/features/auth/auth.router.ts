import { z } from 'zod';
import {
  changePassword,
  login,
  logout,
  logoutEverywhere,
  register,
  sessionUser,
  setLanguage,
} from '../../../core/auth/auth.service';
import { DEVICE_COOKIE, DEVICE_COOKIE_OPTIONS } from '../../../core/auth/device';
import {
  confirmPasswordReset,
  passwordOptions,
  requestPasswordReset,
} from '../../../core/auth/password-reset';
import {
  ZAuthResult,
  ZChangePasswordInput,
  ZLoginInput,
  ZPasswordOptions,
  ZPasswordResetAccepted,
  ZPasswordResetConfirm,
  ZPasswordResetRequest,
  ZRegisterInput,
  ZSessionUser,
  ZSetLanguageInput,
} from '../../../shared/schemas/auth';
import { protectedProcedure, publicProcedure, router } from '../../trpc';

export const authRouter = router({
  login: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/login',
        summary: 'Sign in',
        errors: [429],
        example: { email: 'grace@mchanga.co.ke', password: 'a-long-passphrase' },
      },
    })
    .input(ZLoginInput)
    .output(ZAuthResult)
    .mutation(async ({ ctx, input }) => {
      const { session, deviceCookie } = await login(
        ctx.db,
        ctx.deps.limiters,
        ctx.deps.settings,
        ctx.ip,
        input,
        ctx.cookies?.[DEVICE_COOKIE],
      );
      // This browser is known to the account from now on (core/auth/device.ts).
      ctx.setCookie?.(DEVICE_COOKIE, deviceCookie, DEVICE_COOKIE_OPTIONS);
      return session;
    }),

  register: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/register',
        summary: 'Register a customer account',
        status: 201,
        errors: [409, 429],
        example: {
          name: 'Otieno Hardware',
          email: 'otieno@example.co.ke',
          phone: '0711222333',
          password: 'a-long-passphrase',
        },
      },
    })
    .input(ZRegisterInput)
    .output(ZAuthResult)
    .mutation(({ ctx, input }) => register(ctx.db, ctx.deps.limiters, ctx.deps.settings, ctx.ip, input)),

  me: protectedProcedure
    .meta({ rest: { method: 'GET', path: '/api/auth/me', summary: 'The signed-in user' } })
    .output(ZSessionUser)
    .query(({ ctx }) => sessionUser(ctx.user)),

  /** The screens' language on the account (English or Kiswahili), returned at every sign-in. */
  setLanguage: protectedProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/auth/language',
        summary: "Set the account's language (en or sw)",
        example: { language: 'sw' },
      },
    })
    .input(ZSetLanguageInput)
    .output(ZSessionUser)
    .mutation(({ ctx, input }) => setLanguage(ctx.db, ctx.user, input.language)),

  /** Signs out of this device: the device forgets its token; the action log records it. */
  logout: protectedProcedure
    .meta({
      rest: { method: 'POST', path: '/api/auth/logout', summary: 'Sign out (recorded in the action log)' },
    })
    .mutation(({ ctx }) => logout(ctx.db, ctx.user)),

  /** Signs the user out on every device: all tokens issued so far stop working. */
  logoutAll: protectedProcedure
    .meta({ rest: { method: 'POST', path: '/api/auth/logout-all', summary: 'Sign out on every device' } })
    .mutation(({ ctx }) => logoutEverywhere(ctx.db, ctx.user)),

  changePassword: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/password',
        summary: 'Change password (revokes other sessions)',
        errors: [429],
        example: { currentPassword: 'a-long-passphrase', newPassword: 'another-long-passphrase' },
      },
    })
    .input(ZChangePasswordInput)
    .output(ZAuthResult)
    .mutation(({ ctx, input }) =>
      changePassword(ctx.db, ctx.deps.limiters, ctx.deps.settings, ctx.user, input, ctx.now()),
    ),

  /** Whether the screens may offer a reset by e-mail (SMTP set up); otherwise they say to ask an admin. */
  passwordOptions: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/auth/password-reset',
        summary: 'Password reset options (e-mail on or off)',
      },
    })
    .output(ZPasswordOptions)
    .query(({ ctx }) => passwordOptions(ctx.deps.settings)),

  /** Forgotten password: 202 whatever the address; the link goes out by e-mail from a job. */
  requestPasswordReset: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/password-reset',
        summary:
          'Ask for a password reset link by e-mail (202 always; never says whether the address has an account)',
        status: 202,
        errors: [429],
        example: { email: 'otieno@example.co.ke' },
      },
    })
    .input(ZPasswordResetRequest)
    .output(ZPasswordResetAccepted)
    .mutation(({ ctx, input }) =>
      requestPasswordReset(ctx.db, ctx.deps.limiters, ctx.deps.settings, ctx.ip, input.email, ctx.now()),
    ),

  /** The e-mailed token and a new password: works once, before it expires; other sessions end. */
  confirmPasswordReset: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/password-reset/confirm',
        summary: 'Set a new password with the e-mailed one-time token',
        example: {
          token: 'kq3Jx0b9mW1n4ZsT7pYvR2uC8eHdLgFa6oNiQ5tUjXc',
          newPassword: 'another-long-passphrase',
        },
      },
    })
    .input(ZPasswordResetConfirm)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(({ ctx, input }) => confirmPasswordReset(ctx.db, input, ctx.now())),
});
