import { asc, eq, ne, sql } from 'drizzle-orm';
import { users } from '../../../drizzle/schema';
import { MESSAGES } from '../../../shared/constants';
import {
  type TStaffUser,
  ZCreateStaffUserInput,
  ZStaffUser,
  ZUserIdInput,
} from '../../../shared/schemas/auth';
import { appError } from '../../errors';
import { roleProcedure, router } from '../../trpc';
import { createUser, ensureDriverProfile, type UserRow } from '../auth/auth.service';

const adminProcedure = roleProcedure('ADMIN');

function toStaffUser(row: UserRow): TStaffUser {
  return {
    id: row.id,
    role: row.role,
    name: row.name,
    email: row.email,
    phone: row.phone,
    driverId: row.driverId,
    disabled: row.disabledAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

export const adminUsersRouter = router({
  /** Staff accounts (every role but CUSTOMER), oldest first. */
  list: adminProcedure.output(ZStaffUser.array()).query(async ({ ctx }) => {
    const rows = await ctx.db.select().from(users).where(ne(users.role, 'CUSTOMER')).orderBy(asc(users.id));
    return rows.map(toStaffUser);
  }),

  create: adminProcedure
    .input(ZCreateStaffUserInput)
    .output(ZStaffUser)
    .mutation(async ({ ctx, input }) => {
      const driverId = input.role === 'DRIVER' ? input.driverId : null;
      if (input.role === 'DRIVER' && !driverId) throw appError('BAD_REQUEST', MESSAGES.driverIdRequired);
      return ctx.db.transaction(async (tx) => {
        if (driverId) {
          const [linked] = await tx
            .select({ id: users.id })
            .from(users)
            .where(sql`${users.driverId} = ${driverId} and ${users.role} = 'DRIVER'`)
            .limit(1);
          if (linked) throw appError('CONFLICT', 'That driver ID already has an account.');
          await ensureDriverProfile(tx, driverId, input);
        }
        const row = await createUser(tx, { ...input, driverId });
        return toStaffUser(row);
      });
    }),

  /** Disabling signs the user out everywhere at once (their token version moves on). */
  disable: adminProcedure
    .input(ZUserIdInput)
    .output(ZStaffUser)
    .mutation(async ({ ctx, input }) => {
      if (input.id === ctx.user.id) throw appError('BAD_REQUEST', 'You cannot disable your own account.');
      const [row] = await ctx.db
        .update(users)
        .set({ disabledAt: ctx.now(), tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: ctx.now() })
        .where(eq(users.id, input.id))
        .returning();
      if (!row) throw appError('NOT_FOUND', 'User not found.');
      return toStaffUser(row);
    }),

  enable: adminProcedure
    .input(ZUserIdInput)
    .output(ZStaffUser)
    .mutation(async ({ ctx, input }) => {
      const [row] = await ctx.db
        .update(users)
        .set({ disabledAt: null, updatedAt: ctx.now() })
        .where(eq(users.id, input.id))
        .returning();
      if (!row) throw appError('NOT_FOUND', 'User not found.');
      return toStaffUser(row);
    }),
});
