import type { Db } from '../../drizzle/db';
import { type Enqueue, JOBS, type JobName, type JobPayload } from '../../shared/jobs';
import { failureKind, type Logger, type RepeatedLogger, repeatedLogger } from '../../shared/logger';
import * as q from './outbox-relay.queries';

const BATCH = 200;
const MAX_BACKOFF_MS = 60_000;
/** How long a claimed row is hidden from other relays: well above an enqueue's own time-out. */
const LEASE_MS = 30_000;

/**
 * Moves committed outbox rows onto the job queue. Each row is enqueued with its dedupe id, so a relay
 * that dies after enqueueing and before marking the row sent runs the job once all the same; the
 * handlers are idempotent besides. While the queue is down the row stays, with a growing delay.
 */
export async function relayOutbox(db: Db, enqueue: Enqueue) {
  const claimed = await q.claimDue(db, BATCH, LEASE_MS);
  const sent: number[] = [];
  let failed = 0;
  for (const [i, row] of claimed.entries()) {
    const name = row.job as JobName;
    if (!(name in JOBS)) {
      await q.markFailed(db, row.id, `unknown job ${row.job}`, MAX_BACKOFF_MS);
      failed += 1;
      continue;
    }
    try {
      await enqueue(name, row.payload as JobPayload<typeof name>, { jobId: row.dedupeId });
      sent.push(row.id);
    } catch (err) {
      const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(row.attempts, 10));
      await q.markFailed(db, row.id, (err as Error).message ?? String(err), delay);
      failed += 1;
      // The queue is down: the rest waits for the next pass.
      const untried = claimed.slice(i + 1).map((r) => r.id);
      if (untried.length) await q.release(db, untried);
      break;
    }
  }
  if (sent.length) await q.markSent(db, sent);
  return { sent: sent.length, failed, more: claimed.length === BATCH };
}

export interface OutboxRelayOptions {
  intervalMs: number;
  log?: Logger;
}

/** Polls the outbox (the worker in services mode; the in-process runner in embedded mode). */
export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private lastPrune = 0;
  private readonly repeated: RepeatedLogger | undefined;

  constructor(
    private readonly db: Db,
    private readonly enqueue: Enqueue,
    private readonly options: OutboxRelayOptions,
  ) {
    this.repeated = options.log ? repeatedLogger(options.log) : undefined;
  }

  start() {
    this.stopped = false;
    this.schedule(0);
    return this;
  }

  /** One pass now (joined with a pass already running); resolves when it has finished. */
  runOnce(): Promise<void> {
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Rows due and not claimed. A pass under way has claimed (hidden) what it is enqueueing: see `passing`. */
  pending() {
    return q.pendingCount(this.db);
  }

  /** True while a pass runs (its claimed rows are not yet on the queue). */
  get passing(): boolean {
    return this.running !== undefined;
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      void this.runOnce().finally(() => this.schedule(this.options.intervalMs));
    }, ms);
    this.timer.unref?.();
  }

  private async pass() {
    try {
      let more = true;
      while (more && !this.stopped) {
        const result = await relayOutbox(this.db, this.enqueue);
        more = result.more && result.failed === 0;
      }
      if (Date.now() - this.lastPrune > 3600_000) {
        this.lastPrune = Date.now();
        await q.pruneSent(this.db);
      }
    } catch (err) {
      // The database is unreachable: the rows wait for the next pass.
      this.repeated?.('warn', failureKind('outbox', err), { err }, 'outbox relay pass failed');
    }
  }
}
