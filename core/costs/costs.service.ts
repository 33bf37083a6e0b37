import type { DbOrTx } from '../../drizzle/db';
import { raiseAlert } from '../../drizzle/outbox';
import { COST_DUPLICATE_WINDOW_MS, findCostDuplicate } from '../../shared/domain/duplicates';
import { fromCents, toCents } from '../../shared/domain/money';
import { MONEY_MESSAGES, type TCost, type TCostInput } from '../../shared/schemas/money';
import type { CtxUser } from '../access/actor';
import { costLedgerDepth } from '../access/rules';
import { recordChange } from '../activity/activity';
import { assertOverrideMatches, duplicateConflict } from '../common/duplicates';
import { lockTruck, requireTruck } from '../common/trucks';
import { appError } from '../errors';
import * as q from './costs.queries';

type CostUpdate = Omit<TCostInput, 'overrideDuplicate' | 'duplicateOf'> & { id: number };

export function toCost(row: q.CostRow, plate: string | null = null): TCost {
  return {
    id: row.id,
    type: row.type,
    truck_id: row.truckId,
    plate,
    amount: fromCents(row.amountCents),
    description: row.description,
    incurred_at: row.incurredAt.toISOString(),
    is_duplicate: row.isDuplicate,
    duplicate_of: row.duplicateOf,
    confirmed_at: row.confirmedAt?.toISOString() ?? null,
    source: row.source,
    voided: row.voidedAt !== null,
    assignment_id: row.assignmentId,
  };
}

/** A cost may name a load only of the truck it is booked to. */
async function assertLoadOfTruck(db: DbOrTx, assignmentId: number | undefined, truckId: string) {
  if (assignmentId !== undefined && (await q.loadTruck(db, assignmentId)) !== truckId)
    throw appError('BAD_REQUEST', "Choose one of this truck's loads.");
}

/** The ledger, newest first. OPS sees the recent entries it needs beside its form; ADMIN far more. */
export async function listCosts(db: DbOrTx, user: CtxUser): Promise<TCost[]> {
  const rows = await q.listCostRows(db, costLedgerDepth(user));
  return rows.map((r) => toCost(r.cost, r.plate));
}

/**
 * Records a cost. A suspected duplicate (same truck, type and amount within 24 h, not voided) answers
 * 409 with the earlier entry, unless confirmed with that entry's id; then it is stored flagged and raises
 * an alert. The truck lock makes racing identical submissions store one entry.
 */
export async function createCost(db: DbOrTx, user: CtxUser, input: TCostInput, now: Date): Promise<TCost> {
  await requireTruck(db, input.truckId, MONEY_MESSAGES.costTruck);
  const amountCents = toCents(input.amount);
  const incurredAt = input.incurredAt ?? now;
  await assertLoadOfTruck(db, input.assignmentId, input.truckId);
  const row = await db.transaction(async (tx) => {
    await lockTruck(tx, 'cost', input.truckId);
    const candidate = { truckId: input.truckId, type: input.type, amountCents, incurredAt };
    const nearby = await q.costsNear(tx, candidate, COST_DUPLICATE_WINDOW_MS);
    const match = findCostDuplicate(candidate, nearby);
    if (match && !input.overrideDuplicate) {
      throw duplicateConflict(MONEY_MESSAGES.costDuplicate, {
        id: match.id,
        truck_id: match.truckId,
        type: match.type,
        amount: fromCents(match.amountCents),
        incurred_at: match.incurredAt.toISOString(),
        description: match.description,
        duplicate_of: match.duplicateOf,
      });
    }
    if (match) assertOverrideMatches(input.duplicateOf, match);
    const inserted = await q.insertCost(tx, {
      type: input.type,
      truckId: input.truckId,
      amountCents,
      description: input.description,
      incurredAt,
      assignmentId: input.assignmentId ?? null,
      createdById: user.id,
      ...(match
        ? { isDuplicate: true, duplicateOf: match.id, confirmedAt: now, confirmedById: user.id }
        : {}),
    });
    if (inserted.isDuplicate)
      await raiseAlert(tx, { kind: 'duplicate.flagged', entity: 'cost', id: inserted.id });
    await recordChange(tx, { entity: 'cost', entityId: inserted.id, after: toCost(inserted) });
    return inserted;
  });
  return toCost(row);
}

/** ADMIN corrects a typed-in cost. No duplicate check on edits (spec); fuel and stock costs change at their source. */
export async function updateCost(db: DbOrTx, input: CostUpdate, now: Date): Promise<TCost> {
  const existing = await q.findCost(db, input.id);
  if (!existing) throw appError('NOT_FOUND', MONEY_MESSAGES.costNotFound);
  if (existing.source !== 'MANUAL') throw appError('CONFLICT', MONEY_MESSAGES.linkedCost);
  await requireTruck(db, input.truckId, MONEY_MESSAGES.costTruck);
  await assertLoadOfTruck(db, input.assignmentId, input.truckId);
  return db.transaction(async (tx) => {
    const row = await q.updateCostRow(tx, input.id, {
      ...(input.assignmentId !== undefined ? { assignmentId: input.assignmentId } : {}),
      type: input.type,
      truckId: input.truckId,
      amountCents: toCents(input.amount),
      description: input.description,
      ...(input.incurredAt ? { incurredAt: input.incurredAt } : {}),
      updatedAt: now,
    });
    const after = toCost(row);
    await recordChange(tx, { entity: 'cost', entityId: row.id, before: toCost(existing), after });
    return after;
  });
}
