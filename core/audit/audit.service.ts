import type { DbOrTx } from '../../drizzle/db';
import { fromCents } from '../../shared/domain/money';
import { addDays, startOfLocalDate } from '../../shared/domain/time';
import type { CostType } from '../../shared/enums';
import {
  MONEY_MESSAGES,
  type TAuditActionResult,
  type TAuditListInput,
  type TAuditRecord,
  type TAuditReviewInput,
  type TAuditVoidInput,
} from '../../shared/schemas/money';
import type { CtxUser } from '../access/actor';
import { recordChange } from '../activity/activity';
import { appError } from '../errors';
import { refreshFollowingKm } from '../fuel-anomalies/fuel-anomalies.service';
import * as q from './audit.queries';

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
const kes = (cents: unknown) => (cents === null || cents === undefined ? null : fromCents(Number(cents)));

/** Duplicate-flagged costs and fuel logs, filtered; dates are whole Africa/Nairobi days. */
export async function listAudit(db: DbOrTx, f: TAuditListInput = { limit: 400 }): Promise<TAuditRecord[]> {
  const rows = await q.auditRows(db, {
    ...f,
    from: f.from ? startOfLocalDate(f.from) : null,
    to: f.to ? startOfLocalDate(addDays(f.to, 1)) : null,
  });
  return rows.map((r) => ({
    entity: r.entity as 'COST' | 'FUEL',
    id: Number(r.id),
    status: r.status as TAuditRecord['status'],
    type: r.type as CostType,
    truckId: str(r.truck_id),
    truckPlate: str(r.truck_plate),
    eventAt: iso(r.event_at)!,
    amount: kes(r.amount_cents),
    litres: num(r.litres),
    cost: kes(r.cost_cents),
    description: str(r.description),
    note: str(r.note),
    duplicateOf: num(r.duplicate_of),
    createdByName: str(r.created_by_name),
    createdByEmail: str(r.created_by_email),
    confirmedByName: str(r.confirmed_by_name),
    confirmedAt: iso(r.confirmed_at),
    reviewedByName: str(r.reviewed_by_name),
    reviewedAt: iso(r.reviewed_at),
    voidedByName: str(r.voided_by_name),
    voidedAt: iso(r.voided_at),
    reviewNote: str(r.review_note),
    voidReason: str(r.void_reason),
    linkedCostId: num(r.linked_cost_id),
  }));
}

/** Nothing was marked: 409 when the record is already voided, otherwise it is no flagged record (404). */
async function explainMiss(db: DbOrTx, entity: q.AuditEntity, id: number): Promise<never> {
  const row = await q.flagState(db, entity, id);
  if (row?.isDuplicate && row.voidedAt) throw appError('CONFLICT', MONEY_MESSAGES.alreadyVoided);
  throw appError('NOT_FOUND', MONEY_MESSAGES.recordNotFound);
}

export async function reviewDuplicate(
  db: DbOrTx,
  user: CtxUser,
  input: TAuditReviewInput,
  now: Date,
): Promise<TAuditActionResult> {
  await db.transaction(async (tx) => {
    const before = await q.reviewState(tx, input.entity, input.id);
    const marked = await q.markFlagged(tx, input.entity, input.id, {
      reviewedById: user.id,
      reviewedAt: now,
      reviewNote: input.note || null,
      updatedAt: now,
    });
    if (marked.length === 0) await explainMiss(tx, input.entity, input.id);
    const after = await q.reviewState(tx, input.entity, input.id);
    await recordChange(tx, { entity: input.entity, entityId: input.id, before, after });
  });
  return { entity: input.entity, id: input.id, status: 'reviewed' };
}

/** Voiding takes the record out of every total; a fuel log can take its linked cost with it. */
export async function voidDuplicate(
  db: DbOrTx,
  user: CtxUser,
  input: TAuditVoidInput,
  now: Date,
): Promise<TAuditActionResult> {
  const set = { voidedById: user.id, voidedAt: now, voidReason: input.reason, updatedAt: now };
  await db.transaction(async (tx) => {
    const before = await q.reviewState(tx, input.entity, input.id);
    const marked = await q.markFlagged(tx, input.entity, input.id, set);
    if (marked.length === 0) await explainMiss(tx, input.entity, input.id);
    // The next fill's interval now starts at the log before this one.
    if (input.entity === 'fuel') {
      const log = await q.fuelLogTruckAndTime(tx, input.id);
      if (log) await refreshFollowingKm(tx, log.truckId, log.capturedAt);
    }
    await recordChange(tx, {
      entity: input.entity,
      entityId: input.id,
      before,
      after: await q.reviewState(tx, input.entity, input.id),
    });
    if (input.entity === 'fuel' && input.cascadeCost) {
      const costId = await q.linkedCostId(tx, input.id);
      if (costId) {
        const costBefore = await q.reviewState(tx, 'cost', costId);
        await q.voidCost(tx, costId, {
          ...set,
          voidReason: `${input.reason} (voided with fuel log #${input.id})`,
        });
        await recordChange(tx, {
          entity: 'cost',
          entityId: costId,
          before: costBefore,
          after: await q.reviewState(tx, 'cost', costId),
        });
      }
    }
  });
  return { entity: input.entity, id: input.id, status: 'voided' };
}
