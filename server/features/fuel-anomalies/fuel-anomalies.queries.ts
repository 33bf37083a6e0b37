import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type DbOrTx, rows } from '../../../drizzle/db';
import { fuelAnomalies, fuelLogs, trucks, users } from '../../../drizzle/schema';
import type { FuelFinding } from '../../../shared/domain/fuel-anomalies';
import type { TFuelAnomaly, TFuelAnomalyListInput } from '../../../shared/schemas/fuel-anomalies';

/** Great-circle km between consecutive fixes of `p` (a truck_positions alias), summed. */
const fixKm = sql`2 * 6371 * asin(sqrt(
  power(sin(radians(p.lat - p.prev_lat) / 2), 2)
  + cos(radians(p.prev_lat)) * cos(radians(p.lat)) * power(sin(radians(p.lng - p.prev_lng) / 2), 2)))`;

/**
 * The truck's GPS kilometres between two instants (the sum over consecutive fixes), or null when it
 * reported fewer than two fixes in between (no tracking to judge by).
 */
export async function gpsKmBetween(
  db: DbOrTx,
  truckId: string,
  from: Date,
  to: Date,
): Promise<number | null> {
  const [row] = await rows<{ km: number | null; fixes: number }>(
    db,
    sql`select sum(${fixKm})::float8 as km, count(*)::int as fixes
        from (select lat, lng, lag(lat) over w as prev_lat, lag(lng) over w as prev_lng
              from truck_positions
              where truck_id = ${truckId} and fix_time >= ${from.toISOString()} and fix_time <= ${to.toISOString()}
              window w as (order by fix_time)) p`,
  );
  return row && row.fixes >= 2 ? Number(row.km ?? 0) : null;
}

/** The speed of the truck's fix nearest `at`, within 3 minutes either side. */
export async function speedNear(db: DbOrTx, truckId: string, at: Date): Promise<number | null> {
  const [row] = await rows<{ speed: number | null }>(
    db,
    sql`select speed_kmh as speed from truck_positions
        where truck_id = ${truckId}
          and fix_time between ${new Date(at.getTime() - 180_000).toISOString()} and ${new Date(at.getTime() + 180_000).toISOString()}
        order by abs(extract(epoch from fix_time - ${at.toISOString()}::timestamptz)) limit 1`,
  );
  return row?.speed ?? null;
}

/** The truck's latest log captured before `at` (not voided, not `exceptId`). */
export async function previousLog(db: DbOrTx, truckId: string, at: Date, exceptId: number) {
  const [row] = await db
    .select({ id: fuelLogs.id, odometer: fuelLogs.odometer, capturedAt: fuelLogs.capturedAt })
    .from(fuelLogs)
    .where(
      and(
        eq(fuelLogs.truckId, truckId),
        sql`${fuelLogs.voidedAt} is null`,
        sql`${fuelLogs.id} <> ${exceptId}`,
        sql`${fuelLogs.capturedAt} <= ${at.toISOString()}`,
      ),
    )
    .orderBy(desc(fuelLogs.capturedAt), desc(fuelLogs.id))
    .limit(1);
  return row;
}

/**
 * The truck's last `limit` fill intervals before `at`: each log's litres and the GPS kilometres since the
 * log before it (null without tracking), latest last.
 */
export async function fillIntervals(db: DbOrTx, truckId: string, at: Date, exceptId: number, limit = 20) {
  const list = await rows<{
    id: number;
    litres: number | null;
    captured_at: string;
    km: number | null;
    fixes: number;
  }>(
    db,
    sql`with logs as (
          select id, litres::float8 as litres, captured_at,
                 lag(captured_at) over (order by captured_at, id) as prev_at
          from fuel_logs
          where truck_id = ${truckId} and voided_at is null and id <> ${exceptId}
            and captured_at < ${at.toISOString()}
          order by captured_at desc, id desc
          limit ${limit})
        select l.id, l.litres, l.captured_at, k.km, k.fixes
        from logs l
        cross join lateral (
          select sum(${fixKm})::float8 as km, count(*)::int as fixes
          from (select lat, lng, lag(lat) over w as prev_lat, lag(lng) over w as prev_lng
                from truck_positions
                where truck_id = ${truckId} and fix_time >= l.prev_at and fix_time <= l.captured_at
                window w as (order by fix_time)) p) k
        where l.prev_at is not null
        order by l.captured_at, l.id`,
  );
  return list.map((r) => ({
    id: Number(r.id),
    litres: r.litres === null ? null : Number(r.litres),
    gpsKm: r.fixes >= 2 ? Number(r.km ?? 0) : null,
  }));
}

/** Records the findings (once per log and kind); answers the new anomalies' ids. */
export async function insertFindings(
  db: DbOrTx,
  fuelLogId: number,
  truckId: string,
  findings: FuelFinding[],
) {
  if (findings.length === 0) return [];
  const inserted = await db
    .insert(fuelAnomalies)
    .values(findings.map((f) => ({ fuelLogId, truckId, kind: f.kind, detail: f.detail })))
    .onConflictDoNothing()
    .returning({ id: fuelAnomalies.id });
  return inserted.map((r) => r.id);
}

const reviewer = alias(users, 'reviewer');
const enterer = alias(users, 'enterer');

export async function anomalyRows(
  db: DbOrTx,
  f: NonNullable<TFuelAnomalyListInput> | { id: number; limit: number },
): Promise<TFuelAnomaly[]> {
  const conds = [
    'id' in f ? eq(fuelAnomalies.id, f.id) : undefined,
    'status' in f && f.status ? eq(fuelAnomalies.status, f.status) : undefined,
    'truckId' in f && f.truckId ? eq(fuelAnomalies.truckId, f.truckId) : undefined,
  ].filter(Boolean);
  const list = await db
    .select({
      a: fuelAnomalies,
      plate: trucks.plate,
      reviewedBy: reviewer.name,
      enteredBy: enterer.name,
      capturedAt: fuelLogs.capturedAt,
      litres: fuelLogs.litres,
      odometer: fuelLogs.odometer,
    })
    .from(fuelAnomalies)
    .innerJoin(fuelLogs, eq(fuelLogs.id, fuelAnomalies.fuelLogId))
    .leftJoin(trucks, eq(trucks.id, fuelAnomalies.truckId))
    .leftJoin(reviewer, eq(reviewer.id, fuelAnomalies.reviewedById))
    .leftJoin(enterer, eq(enterer.id, fuelLogs.createdById))
    .where(and(...conds))
    .orderBy(desc(fuelAnomalies.createdAt), desc(fuelAnomalies.id))
    .limit(f.limit);
  return list.map(({ a, plate, reviewedBy, enteredBy, capturedAt, litres, odometer }) => ({
    id: a.id,
    fuelLogId: a.fuelLogId,
    truckId: a.truckId,
    plate,
    kind: a.kind,
    detail: a.detail,
    status: a.status,
    reason: a.reason,
    reviewedBy,
    reviewedAt: a.reviewedAt?.toISOString() ?? null,
    createdAt: a.createdAt.toISOString(),
    capturedAt: capturedAt.toISOString(),
    litres,
    odometer,
    enteredBy,
  }));
}

/** Closes an open finding; false when it was not open (or does not exist). */
export async function closeAnomaly(
  db: DbOrTx,
  id: number,
  set: { status: 'reviewed' | 'dismissed'; reason: string | null; reviewedById: number; reviewedAt: Date },
): Promise<boolean> {
  const updated = await db
    .update(fuelAnomalies)
    .set(set)
    .where(and(eq(fuelAnomalies.id, id), eq(fuelAnomalies.status, 'open')))
    .returning({ id: fuelAnomalies.id });
  return updated.length > 0;
}

export async function anomalyExists(db: DbOrTx, id: number): Promise<boolean> {
  const r = await db.select({ id: fuelAnomalies.id }).from(fuelAnomalies).where(eq(fuelAnomalies.id, id));
  return r.length > 0;
}
