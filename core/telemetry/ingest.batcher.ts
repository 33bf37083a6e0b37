import type { JobPayload, JobQueue } from '../../shared/jobs';
import { telemetryFixesAccepted } from '../metrics/counters';

type Payload = JobPayload<'telemetry.ingest'>;
export type Position = Payload['positions'][number];
export type HeartbeatItem = NonNullable<Payload['heartbeats']>[number];
export type DiscardItem = NonNullable<Payload['discards']>[number];

const BATCH_MAX = 1_000;
const BATCH_WAIT_MS = 20;
/** Distinct (device, reason) counters held while the queue is away; beyond this new ones are dropped. */
const DISCARDS_MAX = 1_000;
/** How long discard counts alone wait for another try after the queue refused them. */
const DISCARD_RETRY_MS = 5_000;

/** One request's reports (or a slice of them, when they exceed a batch) waiting to be queued. */
interface Waiting {
  positions: Position[];
  heartbeats: HeartbeatItem[];
  at: Date;
  resolve: () => void;
  reject: (e: unknown) => void;
}

const sizeOf = (w: Pick<Waiting, 'positions' | 'heartbeats'>) => w.positions.length + w.heartbeats.length;

/**
 * Collects acknowledged reports from concurrent requests into one `telemetry.ingest` job. A request with
 * fixes or a heartbeat is answered only once its batch is queued (a 200 means it is safely in the queue;
 * a refusal is a 503 the device retries). Discard counts never hold a request: they ride along with the
 * next batch, and go back for the one after when the queue refuses it.
 */
export class TelemetryBatcher {
  private pending: Waiting[] = [];
  /** Reports in `pending`. */
  private size = 0;
  private discards = new Map<string, DiscardItem & { at: Date }>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly jobs: Pick<JobQueue, 'enqueue'>,
    private readonly log?: { warn(obj: unknown, msg?: string): void },
  ) {}

  /** One waiter per request (not per report): a burst of buffered lists costs a promise each, not fifty. */
  add(positions: Position[], heartbeats: HeartbeatItem[], at: Date): Promise<void> {
    const slices: Array<Pick<Waiting, 'positions' | 'heartbeats'>> = [];
    if (positions.length + heartbeats.length <= BATCH_MAX) slices.push({ positions, heartbeats });
    else {
      for (let i = 0; i < positions.length; i += BATCH_MAX)
        slices.push({ positions: positions.slice(i, i + BATCH_MAX), heartbeats: [] });
      for (let i = 0; i < heartbeats.length; i += BATCH_MAX)
        slices.push({ positions: [], heartbeats: heartbeats.slice(i, i + BATCH_MAX) });
    }
    const queued = slices.map(
      (slice) =>
        new Promise<void>((resolve, reject) => {
          this.pending.push({ ...slice, at, resolve, reject });
          this.size += sizeOf(slice);
        }),
    );
    if (this.size >= BATCH_MAX) void this.flush();
    else this.arm();
    return queued.length === 1 ? queued[0]! : Promise.all(queued).then(() => undefined);
  }

  /** Counts discarded fixes; never waits. */
  discard(items: DiscardItem[], at: Date) {
    this.keep(items, at);
    if (items.length > 0) this.arm();
  }

  private keep(items: DiscardItem[], at: Date) {
    for (const d of items) {
      const key = `${d.deviceId}\n${d.reason}`;
      const cur = this.discards.get(key);
      if (!cur && this.discards.size >= DISCARDS_MAX) continue;
      this.discards.set(key, {
        ...d,
        count: (cur?.count ?? 0) + d.count,
        at: cur && cur.at > at ? cur.at : at,
      });
    }
  }

  private arm(ms = BATCH_WAIT_MS) {
    this.timer ??= setTimeout(() => void this.flush(), ms);
    if (ms > BATCH_WAIT_MS) this.timer.unref?.();
  }

  async flush() {
    clearTimeout(this.timer);
    this.timer = undefined;
    let take = 0;
    for (let n = 0; take < this.pending.length; take++) {
      n += sizeOf(this.pending[take]!);
      if (n > BATCH_MAX && take > 0) break;
    }
    const batch = this.pending.splice(0, take);
    for (const b of batch) this.size -= sizeOf(b);
    const discards = [...this.discards.values()];
    this.discards.clear();
    if (batch.length === 0 && discards.length === 0) return;
    const times = [...batch.map((b) => b.at), ...discards.map((d) => d.at)];
    const receivedAt = new Date(Math.max(...times.map((t) => t.getTime())));
    try {
      await this.jobs.enqueue('telemetry.ingest', {
        receivedAt: receivedAt.toISOString(),
        positions: batch.length === 1 ? batch[0]!.positions : batch.flatMap((b) => b.positions),
        heartbeats: batch.length === 1 ? batch[0]!.heartbeats : batch.flatMap((b) => b.heartbeats),
        discards: discards.map(({ at: _at, ...d }) => d),
      });
      for (const b of batch) {
        telemetryFixesAccepted.inc(b.positions.length);
        b.resolve();
      }
    } catch (err) {
      for (const b of batch) b.reject(err);
      if (discards.length > 0) {
        // The devices were answered for these: count them with the next batch that gets through.
        for (const d of discards) this.keep([d], d.at);
        this.log?.warn({ err, discards: discards.length }, 'telemetry discard counts held back');
      }
    }
    if (this.size >= BATCH_MAX) this.timer ??= setTimeout(() => void this.flush(), 0);
    else if (this.pending.length > 0) this.arm();
    else if (this.discards.size > 0) this.arm(DISCARD_RETRY_MS);
  }
}
