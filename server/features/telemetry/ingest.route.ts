import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Fix, invalidFix, parseOsmand, parseTraccarJson } from '../../../shared/domain/telemetry';
import type { JobPayload } from '../../../shared/jobs';
import type { AppDeps } from '../../context';
import { toHttpError } from '../../errors';

type Position = JobPayload<'telemetry.ingest'>['positions'][number];

const DEVICE_CACHE_MS = 5_000;
const BATCH_MAX = 1_000;
const BATCH_WAIT_MS = 25;

/**
 * Collects accepted fixes from concurrent requests into one `telemetry.ingest` job. Each request is
 * answered only once its batch is queued, so a 200 means the position is safely in the queue.
 */
export class TelemetryBatcher {
  private pending: Array<{ position: Position; resolve: () => void; reject: (e: unknown) => void }> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: Pick<AppDeps, 'jobs'>) {}

  add(positions: Position[]): Promise<void> {
    return Promise.all(
      positions.map(
        (position) =>
          new Promise<void>((resolve, reject) => {
            this.pending.push({ position, resolve, reject });
            if (this.pending.length >= BATCH_MAX) void this.flush();
            else this.timer ??= setTimeout(() => void this.flush(), BATCH_WAIT_MS);
          }),
      ),
    ).then(() => undefined);
  }

  async flush() {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending.splice(0, BATCH_MAX);
    if (batch.length === 0) return;
    try {
      await this.deps.jobs.enqueue('telemetry.ingest', { positions: batch.map((b) => b.position) });
      for (const b of batch) b.resolve();
    } catch (err) {
      for (const b of batch) b.reject(err);
    }
    if (this.pending.length > 0) this.timer ??= setTimeout(() => void this.flush(), 0);
  }
}

/** Device id → truck id, refreshed every few seconds so a new device works at once without a query per fix. */
class DeviceDirectory {
  private map = new Map<string, string>();
  private loadedAt = 0;
  private loading: Promise<void> | undefined;

  constructor(private readonly deps: Pick<AppDeps, 'database'>) {}

  async truckFor(deviceId: string): Promise<string | undefined> {
    if (Date.now() - this.loadedAt > DEVICE_CACHE_MS || !this.map.has(deviceId))
      await this.reload(!this.map.has(deviceId));
    return this.map.get(deviceId);
  }

  private reload(force: boolean): Promise<void> {
    if (!force && Date.now() - this.loadedAt <= DEVICE_CACHE_MS) return Promise.resolve();
    this.loading ??= this.deps.database
      .rows<{ id: string; device_id: string }>(
        sql`select id, device_id from trucks where device_id is not null`,
      )
      .then((rows) => {
        this.map = new Map(rows.map((r) => [r.device_id, r.id]));
        this.loadedAt = Date.now();
      })
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }
}

function toPosition(fix: Fix, truckId: string): Position {
  return { ...fix, truckId, fixTime: fix.fixTime.toISOString() };
}

/**
 * /api/telemetry/osmand — the URL drivers type into Traccar Client: OsmAnd parameters by GET or POST
 * (query or form), or Traccar Client JSON. Unknown devices get 404; implausible fixes 400.
 */
export function registerTelemetryIngest(app: FastifyInstance, deps: AppDeps) {
  const batcher = new TelemetryBatcher(deps);
  const devices = new DeviceDirectory(deps);
  app.addHook('onClose', async () => batcher.flush());

  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    scope.route({
      method: ['GET', 'POST'],
      url: '/api/telemetry/osmand',
      bodyLimit: 512 * 1024,
      handler: async (req, reply) => {
        try {
          const now = deps.now?.() ?? new Date();
          const query = (req.query ?? {}) as Record<string, unknown>;
          const body = req.body;
          const results =
            body && typeof body === 'object' && !Array.isArray(body) && 'device_id' in body
              ? parseTraccarJson(body, now)
              : Array.isArray(body)
                ? body.flatMap((item) => parseTraccarJson(item, now))
                : [
                    parseOsmand(
                      {
                        ...query,
                        ...((body && typeof body === 'object' ? body : {}) as Record<string, unknown>),
                      },
                      now,
                    ),
                  ];
          const accepted: Position[] = [];
          for (const r of results) {
            if (!r.ok) return reply.code(400).send({ error: r.error });
            const problem = invalidFix(r.fix, now);
            if (problem) return reply.code(400).send({ error: problem });
            const truckId = await devices.truckFor(r.fix.deviceId);
            if (!truckId)
              return reply
                .code(404)
                .send({ error: 'Unknown device. Ask an admin to set this device ID on a truck.' });
            accepted.push(toPosition(r.fix, truckId));
          }
          await batcher.add(accepted);
          return reply.code(200).send({ accepted: accepted.length });
        } catch (err) {
          const http = toHttpError(err);
          if (http.status >= 500) req.log.error({ err }, 'telemetry ingest failed');
          return reply
            .code(http.status === 500 ? 503 : http.status)
            .send(
              http.status === 500
                ? { error: 'Positions cannot be queued right now. The device will retry.' }
                : http.body,
            );
        }
      },
    });
  });
}
