import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type DbOrTx, rows } from '../../drizzle/db';
import { fuelAnomalies, fuelLogs, trucks, users } from '../../drizzle/schema';
import type { FuelFinding } from '../../shared/domain/fuel-anomalies';
import type { TFuelAnomaly, TFuelAnomalyListInput } from '../../shared/schemas/fuel-anomalies';

export { gpsKmBetween } from '../telemetry/odometer';

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
 * The truck's last `limit` fill intervals before `at`: each log's litres and the GPS km since the log
 * before it as stored on the log (null without tracking), latest last. Reads fuel_logs only: the raw
 * fixes may be gone (retention) and the stored km were kept by the worker as fixes arrived.
 */
export async function fillIntervals(db: DbOrTx, truckId: string, at: Date, exceptId: number, limit = 20) {
  const list = await db
    .select({ id: fuelLogs.id, litres: fuelLogs.litres, gpsKm: fuelLogs.gpsKm })
    .from(fuelLogs)
    .where(
      and(
        eq(fuelLogs.truckId, truckId),
        sql`${fuelLogs.voidedAt} is null`,
        sql`${fuelLogs.id} <> ${exceptId}`,
        sql`${fuelLogs.capturedAt} < ${at.toISOString()}`,
      ),
    )
    .orderBy(desc(fuelLogs.capturedAt), desc(fuelLogs.id))
    .limit(limit);
  // The oldest of them has no interval inside the window (as before: `limit` logs, `limit - 1` intervals).
  return list
    .slice(0, Math.max(0, list.length - 1))
    .reverse()
    .map((r) => ({ id: r.id, litres: r.litres, gpsKm: r.gpsKm === null ? null : Number(r.gpsKm) }));
}

/** Stores a log's GPS km since the truck's previous log. */
export async function setGpsKm(db: DbOrTx, id: number, km: number | null) {
  await db.update(fuelLogs).set({ gpsKm: km }).where(eq(fuelLogs.id, id));
}

/**
 * The truck's live logs whose interval (from the log before to the log) may hold fixes from `from` on:
 * the ones captured at or after it, oldest first, at most `limit`.
 */
export async function logsCapturedSince(db: DbOrTx, truckId: string, from: Date, limit = 5) {
  return db
    .select({
      id: fuelLogs.id,
      truckId: fuelLogs.truckId,
      litres: fuelLogs.litres,
      odometer: fuelLogs.odometer,
      capturedAt: fuelLogs.capturedAt,
      tankCapacityL: trucks.tankCapacityL,
    })
    .from(fuelLogs)
    .innerJoin(trucks, eq(trucks.id, fuelLogs.truckId))
    .where(
      and(
        eq(fuelLogs.truckId, truckId),
        sql`${fuelLogs.voidedAt} is null`,
        sql`${fuelLogs.capturedAt} >= ${from.toISOString()}`,
      ),
    )
    .orderBy(fuelLogs.capturedAt, fuelLogs.id)
    .limit(limit);
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
