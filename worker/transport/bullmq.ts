import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { JOB_NAMES, JOBS, type JobName, queueJobOptions, queueNameFor } from '../../shared/jobs';
import { type JobHandlers, workerIdentity } from '../handlers';
import type { Enqueue } from '../jobs/alert-telegram';

export interface BullWorkersOptions {
  redisUrl: string;
  handlers: JobHandlers;
  concurrency?: number;
  /** How long a job's lock lives without renewal; a killed worker's job is taken over after about this. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** Only these jobs (tests run one at a time); default all. */
  only?: JobName[];
  schedules?: boolean;
  /** Redis key prefix (BullMQ's default is `bull`); tests use their own to stay apart. */
  prefix?: string;
  log?: { error: (obj: unknown, msg?: string) => void; info: (obj: unknown, msg?: string) => void };
}

export interface BullWorkers {
  workers: Worker[];
  close(): Promise<void>;
}

/** Starts one BullMQ worker per job queue and registers the cron schedulers (idempotent upserts). */
export async function startBullWorkers(options: BullWorkersOptions): Promise<BullWorkers> {
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const workerId = `bullmq:${workerIdentity()}`;
  const names = options.only ?? JOB_NAMES;
  const workers: Worker[] = [];
  const queues: Queue[] = [];

  for (const name of names) {
    const handler = options.handlers[name] as (payload: unknown, ctx: unknown) => Promise<unknown>;
    const worker = new Worker(
      queueNameFor(name),
      async (job) => {
        const payload = JOBS[name].payload.parse(job.data);
        return handler(payload, {
          jobId: job.id ?? '',
          attempt: job.attemptsMade + 1,
          transport: 'bullmq',
          workerId,
        });
      },
      {
        connection,
        concurrency: options.concurrency ?? 4,
        lockDuration: options.lockDurationMs ?? 30_000,
        stalledInterval: options.stalledIntervalMs ?? 30_000,
        maxStalledCount: 2,
        ...(options.prefix ? { prefix: options.prefix } : {}),
      },
    );
    worker.on('failed', (job, err) =>
      options.log?.error({ err, job: name, id: job?.id, attempts: job?.attemptsMade }, 'job failed'),
    );
    worker.on('error', (err) => options.log?.error({ err, job: name }, 'worker error'));
    workers.push(worker);

    const { cron, timeZone } = JOBS[name].options as { cron?: string; timeZone?: string };
    if (cron && options.schedules !== false) {
      const queue = new Queue(queueNameFor(name), {
        connection,
        ...(options.prefix ? { prefix: options.prefix } : {}),
      });
      queues.push(queue);
      await queue.upsertJobScheduler(
        `${name}:cron`,
        { pattern: cron, tz: timeZone },
        { name, data: {}, opts: queueJobOptions(name) },
      );
    }
  }
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  options.log?.info({ queues: names.map(queueNameFor), workerId }, 'workers ready');

  return {
    workers,
    async close() {
      // Finish running jobs (close waits for them), then release the connection BullMQ does not own.
      await Promise.all(workers.map((w) => w.close()));
      await Promise.all(queues.map((q) => q.close()));
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}

/** Lets handlers queue follow-up jobs (alert fan-out) on the same Redis. */
export function createBullEnqueue(redisUrl: string, prefix?: string) {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queues = new Map<string, Queue>();
  const enqueue: Enqueue = async (name, payload, opts = {}) => {
    let q = queues.get(name);
    if (!q) {
      q = new Queue(queueNameFor(name), { connection, ...(prefix ? { prefix } : {}) });
      queues.set(name, q);
    }
    const def = JOBS[name] as { payload: { parse(v: unknown): unknown }; dedupeId?: (p: unknown) => string };
    const data = def.payload.parse(payload);
    return q.add(name, data, queueJobOptions(name, opts.jobId ?? def.dedupeId?.(data), opts.delayMs));
  };
  return {
    enqueue,
    async close() {
      await Promise.all([...queues.values()].map((q) => q.close()));
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}
