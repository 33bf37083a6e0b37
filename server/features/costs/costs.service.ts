import { and, eq, gte, isNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../../drizzle/db';
import { costs, trucks } from '../../../drizzle/schema';
import { COST_DUPLICATE_WINDOW_MS, findCostDuplicate } from '../../../shared/domain/duplicates';
import { MONEY_MESSAGES, type TCost } from '../../../shared/schemas/money';
import { appError } from '../../errors';

export type CostRow = typeof costs.$inferSelect;

export function toCost(row: CostRow, plate: string | null = null): TCost {
  return {
    id: row.id,
    type: row.type,
    truck_id: row.truckId,
    plate,
    amount: row.amountCents / 100,
    description: row.description,
    incurred_at: row.incurredAt.toISOString(),
    is_duplicate: row.isDuplicate,
    duplicate_of: row.duplicateOf,
    confirmed_at: row.confirmedAt?.toISOString() ?? null,
    source: row.source,
    voided: row.voidedAt !== null,
  };
}

export async function assertTruck(db: DbOrTx, truckId: string, message: string) {
  const [t] = await db.select({ id: trucks.id }).from(trucks).where(eq(trucks.id, truckId)).limit(1);
  if (!t) throw appError('BAD_REQUEST', message);
}

/**
 * Serialises writes for one truck inside the caller's transaction, so a duplicate check and the insert
 * that follows it cannot interleave with an identical submission (20 racing requests store one entry).
 */
export async function lockTruck(tx: Tx, scope: 'cost' | 'fuel', truckId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${scope}:${truckId}`}))`);
}

/** The matching earlier cost, if any: same truck, type and amount within 24 h, not voided. */
export async function matchingCost(
  tx: DbOrTx,
  candidate: { truckId: string; type: string; amountCents: number; incurredAt: Date },
) {
  const window = COST_DUPLICATE_WINDOW_MS;
  const rows = await tx
    .select()
    .from(costs)
    .where(
      and(
        eq(costs.truckId, candidate.truckId),
        eq(costs.type, candidate.type as CostRow['type']),
        eq(costs.amountCents, candidate.amountCents),
        isNull(costs.voidedAt),
        gte(costs.incurredAt, new Date(candidate.incurredAt.getTime() - window)),
        lte(costs.incurredAt, new Date(candidate.incurredAt.getTime() + window)),
      ),
    );
  return findCostDuplicate(candidate, rows);
}

export function duplicateConflict(message: string, existing: Record<string, unknown>) {
  return appError('CONFLICT', message, { duplicate: true, message, existing });
}

export function assertOverrideMatches(duplicateOf: number | undefined, match: { id: number }) {
  if (duplicateOf !== match.id) throw appError('BAD_REQUEST', MONEY_MESSAGES.duplicateOfMismatch);
}
