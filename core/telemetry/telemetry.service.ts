import type { DbOrTx } from '../../drizzle/db';
import { MESSAGES } from '../../shared/constants';
import { nearestPlaceName } from '../../shared/domain/distance';
import { deviceOf, idleMinutes, readTrackerRequest } from '../../shared/domain/telemetry';
import type { JobQueue } from '../../shared/jobs';
import type { TTruckTelemetry } from '../../shared/schemas/telemetry';
import type { CtxUser } from '../access/actor';
import { driverRows } from '../access/rules';
import { appError } from '../errors';
import { type DiscardItem, type HeartbeatItem, type Position, TelemetryBatcher } from './ingest.batcher';
import { DeviceDirectory, DeviceGuard, type GuessRule, TooManyGuesses } from './ingest.devices';
import * as q from './telemetry.queries';

/** Trucks with their latest position, place name and idle time; `onlyDriver` limits to that driver's trucks. */
export async function truckTelemetry(db: DbOrTx, now: Date, onlyDriver?: string): Promise<TTruckTelemetry[]> {
  const rows = await q.truckPositionRows(db, onlyDriver);
  return rows.map((r) => {
    const lastUpdated = r.fix_time ? new Date(r.fix_time) : null;
    const hasFix = r.lat !== null && r.lng !== null;
    return {
      truckId: r.truck_id,
      plate: r.plate,
      lat: r.lat,
      lng: r.lng,
      address: r.address ?? (hasFix ? nearestPlaceName({ lat: r.lat!, lng: r.lng! }) : null),
      status: r.status,
      speed: r.speed_kmh === null ? null : Math.round(r.speed_kmh * 10) / 10,
      idleMinutes: hasFix
        ? idleMinutes(r.last_moved_at ? new Date(r.last_moved_at) : null, lastUpdated, now)
        : null,
      lastUpdated: lastUpdated?.toISOString() ?? null,
      battery: r.battery === null ? null : Math.round(r.battery),
      lastSeen: r.last_seen_at ? new Date(r.last_seen_at).toISOString() : null,
      driverId: r.driver_id,
      driverName: r.driver_name,
      driverPhone: r.driver_phone,
      driverEmail: r.driver_email,
    };
  });
}

/** Every truck for ADMIN, OPS and FUEL; a DRIVER sees only their own (none when not linked). */
export async function liveTrucks(db: DbOrTx, user: CtxUser, now: Date): Promise<TTruckTelemetry[]> {
  const rows = driverRows(user);
  return rows.ok ? truckTelemetry(db, now, rows.driverId) : [];
}

export const UNKNOWN_DEVICE = 'Unknown device. Ask an admin to set this device ID on a truck.';
export const NOT_QUEUED = 'Positions cannot be queued right now. The device will retry.';

export interface IngestResult {
  /** Fixes queued for the history. */
  accepted: number;
  /** Fixes answered but not stored (implausible), counted per device. */
  discarded: number;
}

/**
 * Tracker ingestion: read and make safe → check the address is not guessing device ids → find each
 * device's truck → batch into the queue. Answers: 400 when no device is named, 404 for an unknown device
 * (429 once an address has had too many), 503 when the queue cannot take the reports in time, and 200
 * otherwise — with implausible fixes discarded and counted, never refused (a tracker would resend them
 * forever and hold back everything after them).
 */
export function createTelemetryIngest(deps: {
  db: DbOrTx;
  jobs: Pick<JobQueue, 'enqueue'>;
  log?: { warn(obj: unknown, msg?: string): void };
  guessRule?: GuessRule;
}) {
  const batcher = new TelemetryBatcher(deps.jobs, deps.log);
  const devices = new DeviceDirectory(deps.db);
  const guard = new DeviceGuard(deps.guessRule);
  return {
    async accept(
      query: Record<string, unknown>,
      body: unknown,
      now: Date,
      ip: string,
      log: { warn(obj: unknown, msg?: string): void },
    ): Promise<IngestResult> {
      const readings = readTrackerRequest(query, body, now);
      const refused = readings.find((r) => r.kind === 'refused');
      if (refused) throw appError('BAD_REQUEST', refused.error);
      const deviceIds = [...new Set(readings.map(deviceOf))];
      try {
        await guard.check(ip, deviceIds);
      } catch (err) {
        if (!(err instanceof TooManyGuesses)) throw err;
        throw appError(
          'TOO_MANY_REQUESTS',
          MESSAGES.tooManyAttempts(Math.ceil(err.retryAfterSeconds / 60)),
          undefined,
          { 'retry-after': String(err.retryAfterSeconds) },
        );
      }
      const trucks = new Map<string, string>();
      for (const id of deviceIds) {
        const truckId = await devices.truckFor(id);
        if (truckId) trucks.set(id, truckId);
      }
      if (trucks.size < deviceIds.length) {
        await guard.missed(ip, deviceIds.length - trucks.size);
        throw appError('NOT_FOUND', UNKNOWN_DEVICE);
      }
      guard.known(ip, deviceIds);

      const positions: Position[] = [];
      const heartbeats: HeartbeatItem[] = [];
      const discards: DiscardItem[] = [];
      for (const r of readings) {
        if (r.kind === 'fix')
          positions.push({
            ...r.fix,
            truckId: trucks.get(r.fix.deviceId)!,
            fixTime: r.fix.fixTime.toISOString(),
          });
        else if (r.kind === 'heartbeat')
          heartbeats.push({
            deviceId: r.heartbeat.deviceId,
            truckId: trucks.get(r.heartbeat.deviceId)!,
            battery: r.heartbeat.battery,
          });
        else if (r.kind === 'discarded')
          discards.push({ deviceId: r.deviceId, reason: r.reason, count: 1, sample: r.sample });
      }
      batcher.discard(discards, now);
      if (positions.length > 0 || heartbeats.length > 0) {
        try {
          await batcher.add(positions, heartbeats, now);
        } catch (err) {
          log.warn({ err }, 'telemetry not queued');
          throw appError('SERVICE_UNAVAILABLE', NOT_QUEUED);
        }
      }
      return { accepted: positions.length, discarded: discards.length };
    },
    flush: () => batcher.flush(),
  };
}
