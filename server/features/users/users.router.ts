import { resetStaffPassword } from '../../../core/auth/password-reset';
import { createStaffUser, listStaff, setUserDisabled } from '../../../core/users/users.service';
import {
  ZCreateStaffUserInput,
  ZOneTimePassword,
  ZStaffUser,
  ZUserIdInput,
} from '../../../shared/schemas/auth';
import { roleProcedure, router } from '../../trpc';

const adminProcedure = roleProcedure('ADMIN');

export const usersRouter = router({
  /** Staff accounts (every role but CUSTOMER), oldest first. */
  list: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/users',
        summary: 'Staff accounts',
      },
    })
    .output(ZStaffUser.array())
    .query(({ ctx }) => listStaff(ctx.db)),

  create: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/users',
        summary: 'Create an OPS, DRIVER or FUEL account',
        status: 201,
        errors: [409],
        example: {
          name: 'Grace Wambui',
          email: 'grace@mchanga.co.ke',
          phone: '0733000222',
          password: 'a-long-passphrase',
          role: 'OPS',
        },
      },
    })
    .input(ZCreateStaffUserInput)
    .output(ZStaffUser)
    .mutation(({ ctx, input }) => createStaffUser(ctx.db, input)),

  /** Disabling signs the user out everywhere at once (their token version moves on). */
  disable: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/users/:id/disable',
        summary: 'Disable a staff account',
        errors: [409],
        example: { id: '7' },
      },
    })
    .input(ZUserIdInput)
    .output(ZStaffUser)
    .mutation(({ ctx, input }) => setUserDisabled(ctx.db, ctx.user, input.id, true, ctx.now())),

  enable: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/users/:id/enable',
        summary: 'Re-enable a staff account',
        example: { id: '7' },
      },
    })
    .input(ZUserIdInput)
    .output(ZStaffUser)
    .mutation(({ ctx, input }) => setUserDisabled(ctx.db, ctx.user, input.id, false, ctx.now())),

  /** A one-time password for a staff member who forgot theirs: answered once, changed at next sign-in. */
  resetPassword: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/users/:id/reset-password',
        summary:
          "Reset a staff member's password to a one-time one (answered once; they must change it at sign-in)",
        errors: [404],
        example: { id: '7' },
      },
    })
    .input(ZUserIdInput)
    .output(ZOneTimePassword)
    .mutation(({ ctx, input }) => resetStaffPassword(ctx.db, ctx.user, input.id, ctx.now())),
});
