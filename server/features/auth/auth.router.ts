import {
  ZAuthResult,
  ZChangePasswordInput,
  ZLoginInput,
  ZRegisterInput,
  ZSessionUser,
  ZSetLanguageInput,
} from '../../../shared/schemas/auth';
import { protectedProcedure, publicProcedure, router } from '../../trpc';
import { changePassword, login, logoutEverywhere, register, sessionUser, setLanguage } from './auth.service';

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
    .mutation(({ ctx, input }) => login(ctx.db, ctx.deps.limiters, ctx.deps.settings, ctx.ip, input)),

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
});
