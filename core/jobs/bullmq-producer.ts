import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import {
  CRON_JOB_NAMES,
  dedupeIdFor,
  type EnqueueOptions,
  JOB_COUNT_STATES,
  JOB_NAMES,
  JOBS,
  type JobCount,
  type JobName,
  type JobPayload,
  type JobQueue,
  JobTransportUnavailableError,
  queueJobOptions,
  queueNameFor,
  schedulerIdFor,
} from '../../shared/jobs';

/** An enqueue never holds a request longer than this: a stalled Redis answers fast with 503 (or the outbox waits). */
export const ENQUEUE_TIMEOUT_MS = 250;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/**
 * The server's side of BullMQ. The connection has no offline queue, so while Redis is down `enqueue`
 * fails within a moment instead of hanging the HTTP request that asked for it.
 */
export class BullProducer implements JobQueue {
  readonly transport = 'bullmq' as const;
  readonly connection: Redis;
  private readonly queues = new Map<string, Queue>();

  constructor(
    redisUrl: string,
    private readonly prefix?: string,
  ) {
    this.connection = new Redis(redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      // Keep reconnecting in the background; each enqueue meanwhile fails fast.
      retryStrategy: (times) => Math.min(times * 200, 5_000),
    });
    // ioredis emits 'error' on every failed reconnect; health() reports the state instead.
    this.connection.on('error', () => {});
  }

  private queue(name: JobName): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(queueNameFor(name), {
        connection: this.connection,
        skipWaitingForReady: true,
        ...(this.prefix ? { prefix: this.prefix } : {}),
      });
      q.on('error', () => {});
      this.queues.set(name, q);
    }
    return q;
  }

  async enqueue<N extends JobName>(name: N, payload: JobPayload<N>, opts: EnqueueOptions = {}) {
    const def = JOBS[name];
    const parsed = def.payload.parse(payload);
    const jobId = opts.jobId ?? dedupeIdFor(name, parsed as JobPayload<N>);
    if (this.connection.status !== 'ready') throw new JobTransportUnavailableError(this.connection.status);
    try {
      const job = await withTimeout(
        this.queue(name).add(name, parsed, queueJobOptions(name, jobId, opts.delayMs)),
        ENQUEUE_TIMEOUT_MS,
      );
      return { id: job.id ?? jobId ?? '' };
    } catch (err) {
      throw new JobTransportUnavailableError(err);
    }
  }

  async health() {
    if (this.connection.status !== 'ready') return { ok: false, detail: `redis ${this.connection.status}` };
    try {
      await withTimeout(this.connection.ping(), 1_000);
      const workers = await withTimeout(this.queue('system.heartbeat').getWorkersCount(), 1_000);
      return { ok: true, detail: `redis ready, ${workers} worker${workers === 1 ? '' : 's'} connected` };
    } catch (err) {
      return { ok: false, detail: `redis: ${(err as Error).message}` };
    }
  }

  /** The scheduled jobs whose scheduler is not on the queue (the worker registers them again; see bullmq.ts). */
  async missingSchedules(): Promise<JobName[]> {
    if (this.connection.status !== 'ready') throw new JobTransportUnavailableError(this.connection.status);
    const found = await withTimeout(
      Promise.all(CRON_JOB_NAMES.map((n) => this.queue(n).getJobScheduler(schedulerIdFor(n)))),
      1_000,
    );
    return CRON_JOB_NAMES.filter((_, i) => !found[i]);
  }

  async counts(): Promise<JobCount[]> {
    if (this.connection.status !== 'ready') throw new JobTransportUnavailableError(this.connection.status);
    const all = await withTimeout(
      Promise.all(JOB_NAMES.map((n) => this.queue(n).getJobCounts(...JOB_COUNT_STATES))),
      2_000,
    );
    return JOB_NAMES.flatMap((name, i) =>
      JOB_COUNT_STATES.map((state) => ({ name, state, count: all[i]![state] ?? 0 })),
    );
  }

  async close() {
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
    await this.connection.quit().catch(() => this.connection.disconnect());
  }
}
