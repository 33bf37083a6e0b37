import { desc, eq } from 'drizzle-orm';
import { costs, trucks } from '../../../drizzle/schema';
import { MONEY_MESSAGES, ZCost, ZCostInput, ZCostUpdateInput } from '../../../shared/schemas/money';
import { emitAlert } from '../../alerts';
import { appError } from '../../errors';
import { roleProcedure, router } from '../../trpc';
import {
  assertOverrideMatches,
  assertTruck,
  duplicateConflict,
  lockTruck,
  matchingCost,
  toCost,
} from './costs.service';

export const costsRouter = router({
  /** The ledger, newest first. OPS sees the same recent entries it needs beside its form. */
  list: roleProcedure('ADMIN', 'OPS')
    .output(ZCost.array())
    .query(async ({ ctx }) => {
      const rows = await ctx.db
        .select({ cost: costs, plate: trucks.plate })
        .from(costs)
        .leftJoin(trucks, eq(trucks.id, costs.truckId))
        .orderBy(desc(costs.incurredAt), desc(costs.id))
        .limit(ctx.user.role === 'ADMIN' ? 2000 : 100);
      return rows.map((r) => toCost(r.cost, r.plate));
    }),

  /** Records a cost; a suspected duplicate answers 409 unless confirmed with the matching entry's id. */
  create: roleProcedure('ADMIN', 'OPS')
    .input(ZCostInput)
    .output(ZCost)
    .mutation(async ({ ctx, input }) => {
      await assertTruck(ctx.db, input.truckId, MONEY_MESSAGES.costTruck);
      const amountCents = Math.round(input.amount * 100);
      const incurredAt = input.incurredAt ?? ctx.now();
      const row = await ctx.db.transaction(async (tx) => {
        await lockTruck(tx, 'cost', input.truckId);
        const match = await matchingCost(tx, {
          truckId: input.truckId,
          type: input.type,
          amountCents,
          incurredAt,
        });
        if (match && !input.overrideDuplicate) {
          throw duplicateConflict(MONEY_MESSAGES.costDuplicate, {
            id: match.id,
            truck_id: match.truckId,
            type: match.type,
            amount: match.amountCents / 100,
            incurred_at: match.incurredAt.toISOString(),
            description: match.description,
            duplicate_of: match.duplicateOf,
          });
        }
        if (match) assertOverrideMatches(input.duplicateOf, match);
        const [inserted] = await tx
          .insert(costs)
          .values({
            type: input.type,
            truckId: input.truckId,
            amountCents,
            description: input.description,
            incurredAt,
            createdById: ctx.user.id,
            ...(match
              ? {
                  isDuplicate: true,
                  duplicateOf: match.id,
                  confirmedAt: ctx.now(),
                  confirmedById: ctx.user.id,
                }
              : {}),
          })
          .returning();
        return inserted!;
      });
      if (row.isDuplicate) await emitAlert(ctx.deps, 'duplicate.flagged', `cost:${row.id}`);
      return toCost(row);
    }),

  /** ADMIN corrects a typed-in cost. No duplicate check on edits (spec); fuel and stock costs change at their source. */
  update: roleProcedure('ADMIN')
    .input(ZCostUpdateInput)
    .output(ZCost)
    .mutation(async ({ ctx, input }) => {
      const [existing] = await ctx.db.select().from(costs).where(eq(costs.id, input.id)).limit(1);
      if (!existing) throw appError('NOT_FOUND', MONEY_MESSAGES.costNotFound);
      if (existing.source !== 'MANUAL') throw appError('CONFLICT', MONEY_MESSAGES.linkedCost);
      await assertTruck(ctx.db, input.truckId, MONEY_MESSAGES.costTruck);
      const [row] = await ctx.db
        .update(costs)
        .set({
          type: input.type,
          truckId: input.truckId,
          amountCents: Math.round(input.amount * 100),
          description: input.description,
          ...(input.incurredAt ? { incurredAt: input.incurredAt } : {}),
          updatedAt: ctx.now(),
        })
        .where(eq(costs.id, input.id))
        .returning();
      return toCost(row!);
    }),
});
