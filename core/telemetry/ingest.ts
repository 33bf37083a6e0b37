import { isRowError } from '../../drizzle/errors';
import { raiseAlert } from '../../drizzle/outbox';
import { idleSince, isIdle, isMoving, safeText } from '../../shared/domain/telemetry';
import type { JobPayload } from '../../shared/jobs';
import { recheckAfterFixes } from '../fuel-anomalies/fuel-anomalies.service';
import type { JobContext } from '../jobs/context';
import { telemetryFixesQuarantined, telemetryFixesWritten } from '../metrics/counters';
import { applyGeofences } from './geofence';
import * as q from './ingest.queries';

type Payload = JobPayload<'telemetry.ingest'>;
type Position = Payload['positions'][number];
type Ctx = Pick<JobContext, 'db' | 'now' | 'settings'> & Partial<Pick<JobContext, 'log'>>;

function errorText(err: unknown): string {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 8; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && typeof message === 'string') return safeText(`${code} ${message}`, 500);
    e = (e as { cause?: unknown }).cause;
  }
  return safeText(err instanceof Error ? err.message : String(err), 500);
}

/**
 * Inserts the history in one statement; when the database refuses it, halves the batch until the
 * refused rows stand alone, so one bad row never takes the others with it. Returns the refused rows.
 */
async function insertOrIsolate(
  ctx: Ctx,
  rows: q.HistoryRow[],
): Promise<Array<{ row: q.HistoryRow; error: string }>> {
  if (rows.length === 0) return [];
  try {
    await q.insertHistory(ctx.db, rows);
    return [];
  } catch (err) {
    if (!isRowError(err)) throw err;
    if (rows.length === 1) return [{ row: rows[0]!, error: errorText(err) }];
    const mid = Math.ceil(rows.length / 2);
    return [
      ...(await insertOrIsolate(ctx, rows.slice(0, mid))),
      ...(await insertOrIsolate(ctx, rows.slice(mid))),
    ];
  }
}

/**
 * Writes fixes: the history (one row per device and fix time, so a re-run adds nothing; a row the
 * database refuses goes to telemetry_quarantine with its error), then the latest position per truck
 * (only when newer), keeping when each truck last moved, and raises one idle alert per idle spell.
 */
export async function ingestPositions(ctx: Ctx, positions: Position[], receivedAt = ctx.now().toISOString()) {
  const now = ctx.now();
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
  const refused = await insertOrIsolate(ctx, history);
  for (const { row, error } of refused) {
    // JSON text escapes what the row's own columns could not hold (NUL, half surrogate pairs).
    await q.quarantine(ctx.db, {
      device_id: safeText(row.device_id, 200),
      fix_time: safeText(row.fix_time, 100),
      truck_id: safeText(row.truck_id, 200),
      raw: JSON.stringify(row),
      error,
    });
  }
  if (refused.length > 0)
    ctx.log?.warn(
      { quarantined: refused.length, errors: refused.map((r) => r.error) },
      'telemetry rows quarantined',
    );
  const set = new Set(refused.map((r) => r.row));
  const stored = positions.filter((_, i) => !set.has(history[i]!));
  telemetryFixesWritten.inc(stored.length);
  telemetryFixesQuarantined.inc(refused.length);

  // Late GPS: fixes may fall in the interval of a fuel log already checked; its checks run again.
  const earliest = new Map<string, string>();
  for (const p of stored) {
    const cur = earliest.get(p.truckId);
    if (!cur || p.fixTime < cur) earliest.set(p.truckId, p.fixTime);
  }
  for (const [truckId, from] of [...earliest].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    await recheckAfterFixes(ctx.db, truckId, new Date(from));

  // Newest fix per truck, and the newest moment in the batch it was moving.
  const latest = new Map<string, { p: Position; movedAt: string | null }>();
  for (const p of stored) {
    const cur = latest.get(p.truckId);
    const movedAt = isMoving(p.speedKmh) ? p.fixTime : null;
    if (!cur) {
      latest.set(p.truckId, { p, movedAt });
      continue;
    }
    const newerMove = movedAt && (!cur.movedAt || movedAt > cur.movedAt) ? movedAt : cur.movedAt;
    latest.set(p.truckId, { p: p.fixTime > cur.p.fixTime ? p : cur.p, movedAt: newerMove });
  }
  // In truck order, so that concurrent jobs lock the same rows in the same order (no deadlocks).
  const rows = [...latest.values()]
    .sort((x, y) => (x.p.truckId < y.p.truckId ? -1 : x.p.truckId > y.p.truckId ? 1 : 0))
    .map(({ p, movedAt }) => ({
      truck_id: p.truckId,
      lat: p.lat,
      lng: p.lng,
      speed_kmh: p.speedKmh,
      heading: p.heading,
      status: isMoving(p.speedKmh) ? 'moving' : 'stopped',
      fix_time: p.fixTime,
      moved_at: movedAt,
      battery: p.battery,
      seen_at: receivedAt,
    }));
  const updated = rows.length > 0 ? await q.upsertLatest(ctx.db, rows) : [];

  // A truck with a load that has stood still too long (the idle rule): one alert per idle spell.
  const idleMinutes = ctx.settings.alerts.idleMinutes;
  const idle = updated.filter((r) =>
    isIdle(r.last_moved_at ? new Date(r.last_moved_at) : null, new Date(r.fix_time), now, idleMinutes),
  );
  if (idle.length > 0) {
    const loaded = await q.loadedTrucks(
      ctx.db,
      idle.map((r) => r.truck_id),
    );
    for (const truck of loaded) {
      if (!isIdle(truck.lastMovedAt, truck.lastUpdated, now, idleMinutes)) continue;
      await raiseAlert(ctx.db, {
        kind: 'truck.idle',
        truckId: truck.truckId,
        since: idleSince(truck.lastMovedAt, truck.lastUpdated)!.toISOString(),
      });
    }
  }
  return {
    positions: positions.length,
    stored: stored.length,
    quarantined: refused.length,
    trucks: rows.length,
  };
}

/**
 * One telemetry.ingest job: fixes, then heartbeats (battery and last-seen, the position kept), then the
 * geofences (core/telemetry/geofence.ts: crossings and the loads they move), then the discard
 * counters last, so that a retry after a failure earlier in the job does not count them twice.
 */
export async function ingestBatch(ctx: Ctx, payload: Payload) {
  const receivedAt = payload.receivedAt ?? ctx.now().toISOString();
  const result = await ingestPositions(ctx, payload.positions, receivedAt);

  const beats = new Map<string, { truck_id: string; battery: number | null; seen_at: string }>();
  for (const h of payload.heartbeats ?? []) {
    const battery = h.battery ?? beats.get(h.truckId)?.battery ?? null;
    beats.set(h.truckId, { truck_id: h.truckId, battery, seen_at: receivedAt });
  }
  const ordered = [...beats.values()].sort((x, y) =>
    x.truck_id < y.truck_id ? -1 : x.truck_id > y.truck_id ? 1 : 0,
  );
  const heartbeats = ordered.length > 0 ? await q.recordHeartbeats(ctx.db, ordered) : 0;
  const geofences = await applyGeofences(ctx, payload.positions, payload.heartbeats ?? [], receivedAt);

  const counted = new Map<
    string,
    { device_id: string; reason: string; count: number; sample: string; at: string }
  >();
  for (const d of payload.discards ?? []) {
    const device_id = safeText(d.deviceId, 200);
    const reason = safeText(d.reason, 200);
    const key = `${device_id}\n${reason}`;
    const count = (counted.get(key)?.count ?? 0) + d.count;
    counted.set(key, { device_id, reason, count, sample: safeText(d.sample, 60), at: receivedAt });
  }
  if (counted.size > 0) {
    await q.countDiscards(ctx.db, [...counted.values()]);
    ctx.log?.warn({ discards: [...counted.values()] }, 'telemetry fixes discarded');
  }
  return {
    ...result,
    heartbeats,
    geofences,
    discarded: [...counted.values()].reduce((n, d) => n + d.count, 0),
  };
}
