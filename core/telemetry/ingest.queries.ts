import { sql } from 'drizzle-orm';
import { type DbOrTx, rows as sqlRows } from '../../drizzle/db';
import { sqlLiterals } from '../../drizzle/sql-lists';
import { IDLE_WATCH_LOAD_STATUSES } from '../../shared/enums';
import { type InsertedFix, rollUpFixes } from './odometer';

export interface HistoryRow {
  device_id: string;
  fix_time: string;
  truck_id: string;
  lat: number;
  lng: number;
  speed_kmh: number | null;
  heading: number | null;
  altitude: number | null;
  accuracy: number | null;
  battery: number | null;
  attributes: Record<string, unknown>;
}

export interface LatestRow {
  truck_id: string;
  lat: number;
  lng: number;
  speed_kmh: number | null;
  heading: number | null;
  status: string;
  fix_time: string;
  moved_at: string | null;
  battery: number | null;
  seen_at: string;
}

/**
 * The history, once per device and fix time (a re-run adds nothing), and in the same transaction the
 * rollups that must stay exact before retention drops raw fixes (core/telemetry/odometer.ts). A fix in a
 * month whose partition the positions job has not made yet gets it made first.
 */
export async function insertHistory(db: DbOrTx, history: HistoryRow[]) {
  await ensurePartitions(db, history);
  await db.transaction(async (tx) => {
    const inserted = await sqlRows<InsertedFix>(
      tx,
      sql`
      insert into truck_positions (device_id, fix_time, truck_id, lat, lng, speed_kmh, heading, altitude, accuracy, battery, attributes)
      select device_id, fix_time, truck_id, lat, lng, speed_kmh, heading, altitude, accuracy, battery, attributes
      from jsonb_to_recordset(${JSON.stringify(history)}::jsonb) as x(
        device_id text, fix_time timestamptz, truck_id text, lat float8, lng float8, speed_kmh float8, heading float8,
        altitude float8, accuracy float8, battery float8, attributes jsonb)
      on conflict (device_id, fix_time) do nothing
      returning truck_id, fix_time, speed_kmh`,
    );
    await rollUpFixes(tx, inserted);
  });
}

// Months this process has seen a partition for; a new month costs one call, once.
const knownMonths = new Set<string>();

async function ensurePartitions(db: DbOrTx, history: HistoryRow[]) {
  const months = new Map<string, string>();
  for (const h of history) {
    const at = new Date(h.fix_time);
    if (Number.isNaN(at.getTime())) continue;
    const key = at.toISOString().slice(0, 7);
    if (!knownMonths.has(key)) months.set(key, at.toISOString());
  }
  for (const [key, at] of months) {
    await sqlRows(db, sql`select truck_positions_partition(${at}::timestamptz)`);
    knownMonths.add(key);
  }
}

/** Forgets the partitions this process has seen (the positions job dropped some). */
export function forgetPartitions() {
  knownMonths.clear();
}

/** A fix the database refused, kept as sent with the error (again for the same fix: the latest error). */
export async function quarantine(
  db: DbOrTx,
  row: { device_id: string; fix_time: string; truck_id: string; raw: string; error: string },
) {
  await sqlRows(
    db,
    sql`
    insert into telemetry_quarantine (device_id, fix_time, truck_id, raw, error)
    values (${row.device_id}, ${row.fix_time}, ${row.truck_id}, ${row.raw}, ${row.error})
    on conflict (device_id, fix_time) do update set raw = excluded.raw, error = excluded.error, received_at = now()`,
  );
}

/**
 * The latest position per truck, only when newer; keeps when each truck last moved, its battery and
 * when it was last seen.
 */
export function upsertLatest(db: DbOrTx, rows: LatestRow[]) {
  return sqlRows<{
    truck_id: string;
    last_moved_at: string | Date | null;
    fix_time: string | Date;
  }>(
    db,
    sql`
    insert into truck_latest (truck_id, lat, lng, speed_kmh, heading, status, fix_time, last_moved_at, battery, last_seen_at, updated_at)
    select truck_id, lat, lng, speed_kmh, heading, status, fix_time, coalesce(moved_at, fix_time), battery, seen_at, now()
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(
      truck_id text, lat float8, lng float8, speed_kmh float8, heading float8, status text, fix_time timestamptz,
      moved_at timestamptz, battery float8, seen_at timestamptz)
    on conflict (truck_id) do update set
      lat = case when excluded.fix_time > truck_latest.fix_time then excluded.lat else truck_latest.lat end,
      lng = case when excluded.fix_time > truck_latest.fix_time then excluded.lng else truck_latest.lng end,
      speed_kmh = case when excluded.fix_time > truck_latest.fix_time then excluded.speed_kmh else truck_latest.speed_kmh end,
      heading = case when excluded.fix_time > truck_latest.fix_time then excluded.heading else truck_latest.heading end,
      status = case when excluded.fix_time > truck_latest.fix_time then excluded.status else truck_latest.status end,
      battery = case when excluded.fix_time > truck_latest.fix_time then coalesce(excluded.battery, truck_latest.battery)
        else truck_latest.battery end,
      fix_time = greatest(excluded.fix_time, truck_latest.fix_time),
      last_moved_at = case
        when excluded.status = 'moving' or (excluded.last_moved_at <> excluded.fix_time)
          then greatest(truck_latest.last_moved_at, excluded.last_moved_at)
        else truck_latest.last_moved_at end,
      last_seen_at = greatest(truck_latest.last_seen_at, excluded.last_seen_at),
      updated_at = now()
    returning truck_id, last_moved_at, fix_time`,
  );
}

/**
 * Heartbeats: battery and last-seen on trucks that have a latest position (the position stays); a truck
 * with no fix yet keeps them in truck_seen, so a phone still looking for GPS shows alive with its battery.
 */
export async function recordHeartbeats(
  db: DbOrTx,
  beats: Array<{ truck_id: string; battery: number | null; seen_at: string }>,
) {
  const updated = await sqlRows<{ truck_id: string }>(
    db,
    sql`
    update truck_latest l set
      battery = coalesce(x.battery, l.battery),
      last_seen_at = greatest(l.last_seen_at, x.seen_at),
      updated_at = now()
    from jsonb_to_recordset(${JSON.stringify(beats)}::jsonb) as x(truck_id text, battery float8, seen_at timestamptz)
    where l.truck_id = x.truck_id
    returning l.truck_id`,
  );
  const placed = new Set(updated.map((u) => u.truck_id));
  const unplaced = beats.filter((b) => !placed.has(b.truck_id));
  if (unplaced.length === 0) return updated.length;
  const seen = await sqlRows<{ truck_id: string }>(
    db,
    sql`
    insert into truck_seen (truck_id, battery, last_seen_at)
    select x.truck_id, x.battery, x.seen_at
    from jsonb_to_recordset(${JSON.stringify(unplaced)}::jsonb) as x(truck_id text, battery float8, seen_at timestamptz)
    join trucks t on t.id = x.truck_id
    on conflict (truck_id) do update set
      battery = coalesce(excluded.battery, truck_seen.battery),
      last_seen_at = greatest(truck_seen.last_seen_at, excluded.last_seen_at)
    returning truck_id`,
  );
  return updated.length + seen.length;
}

/** Adds discarded fixes to the per-device counters (one row per device and reason). */
export async function countDiscards(
  db: DbOrTx,
  discards: Array<{ device_id: string; reason: string; count: number; sample: string; at: string }>,
) {
  await sqlRows(
    db,
    sql`
    insert into telemetry_discards (device_id, reason, count, first_at, last_at, last_sample)
    select device_id, reason, count, at, at, sample
    from jsonb_to_recordset(${JSON.stringify(discards)}::jsonb) as x(
      device_id text, reason text, count int, at timestamptz, sample text)
    on conflict (device_id, reason) do update set
      count = telemetry_discards.count + excluded.count,
      last_at = greatest(telemetry_discards.last_at, excluded.last_at),
      last_sample = excluded.last_sample`,
  );
}

/**
 * Trucks carrying a load the idle rule watches (IDLE_WATCH_LOAD_STATUSES: waiting at the yard or on the
 * road), with their plate and when they last moved and reported; all of them, or only `truckIds`.
 */
export async function loadedTrucks(db: DbOrTx, truckIds?: string[]) {
  const found = await sqlRows<{
    truck_id: string;
    plate: string;
    last_moved_at: string | Date | null;
    fix_time: string | Date;
  }>(
    db,
    sql`
      select t.id as truck_id, coalesce(t.plate, t.id) as plate, l.last_moved_at, l.fix_time
      from truck_latest l join trucks t on t.id = l.truck_id
      where exists (select 1 from assignments a
                    where a.truck_id = l.truck_id and a.status in (${sqlLiterals(IDLE_WATCH_LOAD_STATUSES)}))
      ${
        truckIds
          ? sql`and l.truck_id in (${sql.join(
              truckIds.map((id) => sql`${id}`),
              sql`, `,
            )})`
          : sql``
      }
      order by t.id`,
  );
  return found.map((r) => ({
    truckId: r.truck_id,
    plate: r.plate,
    lastMovedAt: r.last_moved_at === null ? null : new Date(r.last_moved_at),
    lastUpdated: new Date(r.fix_time),
  }));
}
