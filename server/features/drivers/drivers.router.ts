import { asc } from 'drizzle-orm';
import { drivers } from '../../../drizzle/schema';
import {
  FLEET_MESSAGES,
  ZDriver,
  ZDriverCreateInput,
  ZDriverUpdateInput,
} from '../../../shared/schemas/fleet';
import { appError } from '../../errors';
import { roleProcedure, router } from '../../trpc';
import { toDriver, updateDriverProfile } from './drivers.service';

export const driversRouter = router({
  list: roleProcedure('ADMIN', 'OPS')
    .output(ZDriver.array())
    .query(async ({ ctx }) => (await ctx.db.select().from(drivers).orderBy(asc(drivers.name))).map(toDriver)),

  create: roleProcedure('ADMIN')
    .input(ZDriverCreateInput)
    .output(ZDriver)
    .mutation(async ({ ctx, input }) => {
      const [row] = await ctx.db
        .insert(drivers)
        .values({ id: input.id, name: input.name, email: input.email ?? null, phone: input.phone ?? null })
        .onConflictDoNothing({ target: drivers.id })
        .returning();
      if (!row) throw appError('CONFLICT', FLEET_MESSAGES.driverIdTaken);
      return toDriver(row);
    }),

  update: roleProcedure('ADMIN')
    .input(ZDriverUpdateInput)
    .output(ZDriver)
    .mutation(({ ctx, input }) => updateDriverProfile(ctx.db, ctx.deps.config, input.id, input, ctx.now())),
});
