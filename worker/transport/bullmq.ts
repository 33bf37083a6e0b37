import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { JOB_NAMES, JOBS, type JobName, queueJobOptions, queueNameFor } from '../../shared/jobs';
import { type JobHandlers, type JobRuntime, jobContext, PermanentJobError, workerIdentity } from '../context';
import { handlers as realHandlers } from '../handlers';
import { BullProducer } from './bullmq-producer';

export interface BullWorkersOptions {
  redisUrl: string;
  runtime: JobRuntime;
  /** The handlers to run (tests swap some); the real ones by default. */
  handlers?: JobHandlers;
  concurrency?: number;
  /** How long a job's lock lives without renewal; a killed worker's job is taken over after about this. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** Only these jobs (tests run one at a time); default all. */
  only?: JobName[];
  schedules?: boolean;
  /** Redis key prefix (BullMQ's default is `bull`); tests use their own to stay apart. */
  prefix?: string;
}

export interface BullWorkers {
  workers: Worker[];
  /** Queues follow-up jobs on the same Redis (handlers' `ctx.enqueue`, the outbox relay). */
  producer: BullProducer;
  close(): Promise<void>;
}

/** Starts one BullMQ worker per job queue and registers the cron schedulers (idempotent upserts). */
export async function startBullWorkers(options: BullWorkersOptions): Promise<BullWorkers> {
  const { runtime } = options;
  const handlers = options.handlers ?? realHandlers;
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const producer = new BullProducer(options.redisUrl, options.prefix);
  const enqueue = producer.enqueue.bind(producer);
  const workerId = `bullmq:${workerIdentity()}`;
  const names = options.only ?? JOB_NAMES;
  const workers: Worker[] = [];
  const queues: Queue[] = [];

  for (const name of names) {
    const handler = handlers[name] as (payload: unknown, ctx: unknown) => Promise<unknown>;
    const worker = new Worker(
      queueNameFor(name),
      async (job) => {
        const payload = JOBS[name].payload.parse(job.data);
        const ctx = jobContext(runtime, enqueue, {
          jobId: job.id ?? '',
          attempt: job.attemptsMade + 1,
          transport: 'bullmq',
          workerId,
        });
        try {
          return await handler(payload, ctx);
        } catch (err) {
          // BullMQ does not retry an UnrecoverableError.
          if (err instanceof PermanentJobError) throw new UnrecoverableError(err.message);
          throw err;
        }
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
      runtime.log.error({ err, job: name, id: job?.id, attempts: job?.attemptsMade }, 'job failed'),
    );
    worker.on('error', (err) => runtime.log.error({ err, job: name }, 'worker error'));
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
  runtime.log.info({ queues: names.map(queueNameFor), workerId }, 'workers ready');

  return {
    workers,
    producer,
    async close() {
      // Finish running jobs (close waits for them), then release the connections BullMQ does not own.
      await Promise.all(workers.map((w) => w.close()));
      await Promise.all(queues.map((q) => q.close()));
      await producer.close();
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}
