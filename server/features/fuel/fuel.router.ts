import { and, eq, gte, isNull, lte, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { costs, fuelLogs, trucks } from '../../../drizzle/schema';
import { FUEL_DUPLICATE_WINDOW_MS, findFuelDuplicate } from '../../../shared/domain/duplicates';
import { MONEY_MESSAGES, ZFuelInput, ZFuelLog } from '../../../shared/schemas/money';
import { emitAlert } from '../../alerts';
import { appError } from '../../errors';
import { roleProcedure, router } from '../../trpc';
import { storeImage } from '../../uploads';
import { assertOverrideMatches, duplicateConflict, lockTruck } from '../costs/costs.service';
import { listFuelLogs } from './fuel.queries';

const fuelProcedure = roleProcedure('FUEL', 'OPS', 'ADMIN');

export const fuelRouter = router({
  list: fuelProcedure
    .input(z.object({ limit: z.coerce.number().int().min(1).max(50).default(50) }).optional())
    .output(ZFuelLog.array())
    .query(({ ctx, input }) => listFuelLogs(ctx, input?.limit ?? 50)),

  /** A pump reading with its linked FUEL cost; the same duplicate flow as costs, with the fuel rule. */
  create: fuelProcedure
    .input(ZFuelInput)
    .output(ZFuelLog)
    .mutation(async ({ ctx, input }) => {
      const key = input.truckId.toLowerCase();
      const [truck] = await ctx.db
        .select()
        .from(trucks)
        .where(
          or(
            sql`lower(${trucks.id}) = ${key}`,
            sql`lower(replace(${trucks.plate}, ' ', '')) = ${key.replace(/\s+/g, '')}`,
          ),
        )
        .limit(1);
      if (!truck) throw appError('BAD_REQUEST', MONEY_MESSAGES.unknownTruck);
      const capturedAt = input.capturedAt ?? ctx.now();
      const costCents = Math.round(input.cost * 100);
      const photoPath = input.photoData
        ? await storeImage(ctx.deps.config, input.photoData, 'fuel-photo')
        : null;

      const log = await ctx.db.transaction(async (tx) => {
        await lockTruck(tx, 'fuel', truck.id);
        const nearby = await tx
          .select()
          .from(fuelLogs)
          .where(
            and(
              eq(fuelLogs.truckId, truck.id),
              isNull(fuelLogs.voidedAt),
              or(
                input.odometer !== null ? eq(fuelLogs.odometer, input.odometer) : sql`false`,
                and(
                  gte(fuelLogs.capturedAt, new Date(capturedAt.getTime() - FUEL_DUPLICATE_WINDOW_MS)),
                  lte(fuelLogs.capturedAt, new Date(capturedAt.getTime() + FUEL_DUPLICATE_WINDOW_MS)),
                ),
              ),
            ),
          );
        const match = findFuelDuplicate(
          { truckId: truck.id, odometer: input.odometer, litres: input.litres, costCents, capturedAt },
          nearby,
        );
        if (match && !input.overrideDuplicate) {
          throw duplicateConflict(MONEY_MESSAGES.fuelDuplicate, {
            id: match.id,
            truck_id: match.truckId,
            litres: match.litres,
            odometer: match.odometer,
            cost: match.costCents / 100,
            captured_at: match.capturedAt.toISOString(),
            note: match.note,
            duplicate_of: match.duplicateOf,
          });
        }
        if (match) assertOverrideMatches(input.duplicateOf, match);
        const flags = match
          ? { isDuplicate: true, duplicateOf: match.id, confirmedAt: ctx.now(), confirmedById: ctx.user.id }
          : {};
        let costId: number | null = null;
        if (costCents > 0) {
          const [cost] = await tx
            .insert(costs)
            .values({
              type: 'FUEL',
              truckId: truck.id,
              amountCents: costCents,
              description: `Fuel${input.litres !== null ? ` ${input.litres} L` : ''}${input.note ? `: ${input.note}` : ''}`,
              incurredAt: capturedAt,
              source: 'FUEL',
              createdById: ctx.user.id,
              ...(match
                ? {
                    isDuplicate: true,
                    duplicateOf: match.costId,
                    confirmedAt: ctx.now(),
                    confirmedById: ctx.user.id,
                  }
                : {}),
            })
            .returning({ id: costs.id });
          costId = cost!.id;
        }
        const [row] = await tx
          .insert(fuelLogs)
          .values({
            truckId: truck.id,
            litres: input.litres,
            odometer: input.odometer,
            costCents,
            note: input.note || null,
            capturedAt,
            photoPath,
            driverId: truck.primaryDriverId,
            costId,
            createdById: ctx.user.id,
            ...flags,
          })
          .returning();
        return row!;
      });
      if (log.isDuplicate) await emitAlert(ctx.deps, 'duplicate.flagged', `fuel:${log.id}`);
      return (await listFuelLogs(ctx, 1, log.id))[0]!;
    }),
});
