import { and, eq, isNull, sql } from 'drizzle-orm';
import { type DbOrTx, rows as sqlRows } from '../../drizzle/db';
import { costs, fuelLogs } from '../../drizzle/schema';

export type AuditEntity = 'cost' | 'fuel';

export interface AuditRowFilters {
  limit: number;
  entity?: AuditEntity | undefined;
  status?: string | undefined;
  type?: string | undefined;
  truckId?: string | undefined;
  /** [from, to) as instants. */
  from: Date | null;
  to: Date | null;
}

const statusSql = (alias: string) =>
  sql.raw(
    `case when ${alias}.voided_at is not null then 'voided' when ${alias}.reviewed_at is not null then 'reviewed' else 'pending' end`,
  );

/** Duplicate-flagged costs (typed in, not fuel-linked) and fuel logs in one list, newest event first. */
export function auditRows(db: DbOrTx, f: AuditRowFilters) {
  const costPart = sql`
    select 'COST' as entity, c.id, ${statusSql('c')} as status, c.type, c.truck_id, t.plate as truck_plate, c.incurred_at as event_at,
           c.amount_cents::float8 as amount_cents, null::float8 as litres, null::float8 as cost_cents, c.description, null::text as note,
           c.duplicate_of, cu.name as created_by_name, cu.email as created_by_email, fu.name as confirmed_by_name, c.confirmed_at,
           ru.name as reviewed_by_name, c.reviewed_at, vu.name as voided_by_name, c.voided_at, c.review_note, c.void_reason,
           null::int as linked_cost_id
    from costs c left join trucks t on t.id = c.truck_id
    left join users cu on cu.id = c.created_by_id left join users fu on fu.id = c.confirmed_by_id
    left join users ru on ru.id = c.reviewed_by_id left join users vu on vu.id = c.voided_by_id
    where c.is_duplicate and c.source <> 'FUEL'`;
  const fuelPart = sql`
    select 'FUEL' as entity, l.id, ${statusSql('l')} as status, 'FUEL' as type, l.truck_id, t.plate as truck_plate, l.captured_at as event_at,
           null::float8 as amount_cents, l.litres::float8 as litres, l.cost_cents::float8 as cost_cents, null::text as description, l.note,
           l.duplicate_of, cu.name, cu.email, fu.name, l.confirmed_at, ru.name, l.reviewed_at, vu.name, l.voided_at, l.review_note,
           l.void_reason, l.cost_id as linked_cost_id
    from fuel_logs l left join trucks t on t.id = l.truck_id
    left join users cu on cu.id = l.created_by_id left join users fu on fu.id = l.confirmed_by_id
    left join users ru on ru.id = l.reviewed_by_id left join users vu on vu.id = l.voided_by_id
    where l.is_duplicate`;
  const parts =
    f.entity === 'cost' ? costPart : f.entity === 'fuel' ? fuelPart : sql`${costPart} union all ${fuelPart}`;
  const from = f.from?.toISOString() ?? null;
  const to = f.to?.toISOString() ?? null;
  return sqlRows<Record<string, unknown>>(
    db,
    sql`
    select * from (${parts}) r
    where (${f.status ?? null}::text is null or r.status = ${f.status ?? null})
      and (${f.type ?? null}::text is null or r.type = ${f.type ?? null})
      and (${f.truckId ?? null}::text is null or r.truck_id = ${f.truckId ?? null})
      and (${from}::timestamptz is null or r.event_at >= ${from})
      and (${to}::timestamptz is null or r.event_at < ${to})
    order by r.event_at desc, r.id desc
    limit ${f.limit}`,
  );
}

const tableOf = (entity: AuditEntity) => (entity === 'cost' ? costs : fuelLogs);

export type AuditMark = Partial<
  Pick<
    typeof costs.$inferInsert,
    'reviewedById' | 'reviewedAt' | 'reviewNote' | 'voidedById' | 'voidedAt' | 'voidReason' | 'updatedAt'
  >
>;

/** Marks a flagged, not yet voided record; an empty answer means there was none to mark. */
export function markFlagged(db: DbOrTx, entity: AuditEntity, id: number, set: AuditMark) {
  const table = tableOf(entity);
  return db
    .update(table)
    .set(set)
    .where(and(eq(table.id, id), eq(table.isDuplicate, true), isNull(table.voidedAt)))
    .returning({ id: table.id });
}

export async function flagState(db: DbOrTx, entity: AuditEntity, id: number) {
  const table = tableOf(entity);
  const [row] = await db
    .select({ isDuplicate: table.isDuplicate, voidedAt: table.voidedAt })
    .from(table)
    .where(eq(table.id, id));
  return row;
}

export async function linkedCostId(db: DbOrTx, fuelLogId: number) {
  const [log] = await db.select({ costId: fuelLogs.costId }).from(fuelLogs).where(eq(fuelLogs.id, fuelLogId));
  return log?.costId ?? null;
}

export async function fuelLogTruckAndTime(db: DbOrTx, fuelLogId: number) {
  const [log] = await db
    .select({ truckId: fuelLogs.truckId, capturedAt: fuelLogs.capturedAt })
    .from(fuelLogs)
    .where(eq(fuelLogs.id, fuelLogId));
  return log;
}

export function voidCost(db: DbOrTx, costId: number, set: AuditMark) {
  return db
    .update(costs)
    .set(set)
    .where(and(eq(costs.id, costId), isNull(costs.voidedAt)));
}

/** A record's review state, locked for the transaction (the action log's before-image). */
export async function reviewState(db: DbOrTx, entity: AuditEntity, id: number) {
  const table = tableOf(entity);
  const [row] = await db
    .select({
      reviewedAt: table.reviewedAt,
      reviewNote: table.reviewNote,
      voidedAt: table.voidedAt,
      voidReason: table.voidReason,
    })
    .from(table)
    .where(eq(table.id, id))
    .for('update');
  return row
    ? {
        status: row.voidedAt ? 'voided' : row.reviewedAt ? 'reviewed' : 'pending',
        reviewNote: row.reviewNote,
        voidReason: row.voidReason,
      }
    : null;
}
