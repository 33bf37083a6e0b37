import { sql } from 'drizzle-orm';
import type { Database } from '../../drizzle/db';
import { isMoving } from '../../shared/domain/telemetry';
import type { JobPayload } from '../../shared/jobs';
import { type EmitAlert, fanOutAlert } from './alert-fanout';

type Position = JobPayload<'telemetry.ingest'>['positions'][number];

export const IDLE_ALERT_MINUTES = Number(process.env.IDLE_ALERT_MINUTES ?? 30);

/**
 * Writes a batch in two statements: the history (one row per device and fix time, so a re-run adds
 * nothing) and the latest position per truck (only when newer), keeping when each truck last moved.
 */
export async function ingestPositions(
  database: Database,
  positions: Position[],
  now = new Date(),
  emit: EmitAlert = (kind, refId) => fanOutAlert(database, { kind, refId }),
) {
  const history = positions.map((p) => ({
    device_id: p.deviceId,
    fix_time: p.fixTime,
    truck_id: p.truckId,
    lat: p.lat,
    lng: p.lng,
    speed_kmh: p.speedKmh,
    heading: p.heading,
    altitude: p.altitude,
    accuracy: p.accuracy,
    battery: p.battery,
    attributes: p.attributes,
  }));
  await database.rows(sql`
    insert into truck_positions (device_id, fix_time, truck_id, lat, lng, speed_kmh, heading, altitude, accuracy, battery, attributes)
    select device_id, fix_time, truck_id, lat, lng, speed_kmh, heading, altitude, accuracy, battery, attributes
    from jsonb_to_recordset(${JSON.stringify(history)}::jsonb) as x(
      device_id text, fix_time timestamptz, truck_id text, lat float8, lng float8, speed_kmh float8, heading float8,
      altitude float8, accuracy float8, battery float8, attributes jsonb)
    on conflict (device_id, fix_time) do nothing`);

  // Newest fix per truck, and the newest moment in the batch it was moving.
  const latest = new Map<string, { p: Position; movedAt: string | null }>();
  for (const p of positions) {
    const cur = latest.get(p.truckId);
    const movedAt = isMoving(p.speedKmh) ? p.fixTime : null;
    if (!cur) {
      latest.set(p.truckId, { p, movedAt });
      continue;
    }
    const newerMove = movedAt && (!cur.movedAt || movedAt > cur.movedAt) ? movedAt : cur.movedAt;
    latest.set(p.truckId, { p: p.fixTime > cur.p.fixTime ? p : cur.p, movedAt: newerMove });
  }
  const rows = [...latest.values()].map(({ p, movedAt }) => ({
    truck_id: p.truckId,
    lat: p.lat,
    lng: p.lng,
    speed_kmh: p.speedKmh,
    heading: p.heading,
    status: isMoving(p.speedKmh) ? 'moving' : 'stopped',
    fix_time: p.fixTime,
    moved_at: movedAt,
  }));
  const updated = await database.rows<{
    truck_id: string;
    last_moved_at: string | Date | null;
    fix_time: string | Date;
  }>(sql`
    insert into truck_latest (truck_id, lat, lng, speed_kmh, heading, status, fix_time, last_moved_at, updated_at)
    select truck_id, lat, lng, speed_kmh, heading, status, fix_time, coalesce(moved_at, fix_time), now()
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(
      truck_id text, lat float8, lng float8, speed_kmh float8, heading float8, status text, fix_time timestamptz, moved_at timestamptz)
    on conflict (truck_id) do update set
      lat = case when excluded.fix_time > truck_latest.fix_time then excluded.lat else truck_latest.lat end,
      lng = case when excluded.fix_time > truck_latest.fix_time then excluded.lng else truck_latest.lng end,
      speed_kmh = case when excluded.fix_time > truck_latest.fix_time then excluded.speed_kmh else truck_latest.speed_kmh end,
      heading = case when excluded.fix_time > truck_latest.fix_time then excluded.heading else truck_latest.heading end,
      status = case when excluded.fix_time > truck_latest.fix_time then excluded.status else truck_latest.status end,
      fix_time = greatest(excluded.fix_time, truck_latest.fix_time),
      last_moved_at = case
        when excluded.status = 'moving' or (excluded.last_moved_at <> excluded.fix_time)
          then greatest(truck_latest.last_moved_at, excluded.last_moved_at)
        else truck_latest.last_moved_at end,
      updated_at = now()
    returning truck_id, last_moved_at, fix_time`);

  // A truck with a load that has stood still too long: one alert per idle spell.
  const idle = updated.filter(
    (r) =>
      r.last_moved_at && now.getTime() - new Date(r.last_moved_at).getTime() >= IDLE_ALERT_MINUTES * 60_000,
  );
  if (idle.length > 0) {
    const loaded = await database.rows<{ truck_id: string }>(sql`
      select distinct truck_id from assignments
      where status in ('SCHEDULED','IN_TRANSIT') and truck_id in (${sql.join(
        idle.map((r) => sql`${r.truck_id}`),
        sql`, `,
      )})`);
    for (const { truck_id } of loaded) {
      const spell = idle.find((r) => r.truck_id === truck_id)!;
      await emit('truck.idle', `${truck_id}@${new Date(spell.last_moved_at!).toISOString()}`);
    }
  }
  return { positions: positions.length, trucks: rows.length };
}
