import { DelayedError, Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { BullProducer } from '../../core/jobs/bullmq-producer';
import {
  DEPENDENCY_BACKOFF,
  type DependencyBackoff,
  dependencyDelayMs,
  type JobHandlers,
  type JobRuntime,
  jobContext,
  PermanentJobError,
  waitsForDependency,
  workerIdentity,
} from '../../core/jobs/context';
import {
  JOB_NAMES,
  JOBS,
  type JobName,
  type JobOptions,
  queueJobOptions,
  queueNameFor,
  schedulerIdFor,
} from '../../shared/jobs';
import { failureKind, repeatedLogger } from '../../shared/logger';
import { handlers as realHandlers } from '../handlers';

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
  /** How a job waits for a database that is down (tests shorten it). */
  dependencyBackoff?: DependencyBackoff;
  /** How often the schedules are looked up and registered again when missing (SCHEDULE_CHECK_MS). */
  scheduleCheckMs?: number;
}

/** Schedules missing from Redis are registered again within this long (readiness reports them meanwhile). */
export const SCHEDULE_CHECK_MS = 15_000;

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
  // While Redis is down every connection fails on every retry: one line per kind of failure per 30 s.
  const repeated = repeatedLogger(runtime.log);
  const redisError = (err: Error) =>
    repeated('error', failureKind('redis', err), { err }, 'Redis unreachable (jobs wait for it)');
  connection.on('error', redisError);
  const producer = new BullProducer(options.redisUrl, options.prefix);
  const enqueue = producer.enqueue.bind(producer);
  const workerId = `bullmq:${workerIdentity()}`;
  const names = options.only ?? JOB_NAMES;
  const workers: Worker[] = [];
  const queues: Queue[] = [];
  const scheduled: Array<{ name: JobName; queue: Queue }> = [];
  const registerSchedule = (name: JobName, queue: Queue) => {
    const { cron, timeZone } = JOBS[name].options as JobOptions;
    return queue.upsertJobScheduler(
      schedulerIdFor(name),
      { pattern: cron!, tz: timeZone },
      { name, data: {}, opts: queueJobOptions(name) },
    );
  };

  for (const name of names) {
    const handler = handlers[name] as (payload: unknown, ctx: unknown) => Promise<unknown>;
    const worker = new Worker(
      queueNameFor(name),
      async (job, token) => {
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
          if (token && waitsForDependency(err)) {
            // Runs started minus failures counted: how many times it has waited for the database so far.
            const waits = Math.max(0, job.attemptsStarted - job.attemptsMade - 1);
            const delay = dependencyDelayMs(waits, options.dependencyBackoff ?? DEPENDENCY_BACKOFF);
            // Delayed without counting an attempt; a failure to move it fails the attempt as before.
            await job.moveToDelayed(Date.now() + delay, token).catch(() => {
              throw err;
            });
            repeated(
              'warn',
              'database-down',
              { err, job: name, delayMs: delay },
              'job waits for the database',
            );
            throw new DelayedError();
          }
          throw err;
        }
      },
      {
        connection,
        concurrency: (JOBS[name].options as JobOptions).concurrency ?? options.concurrency ?? 4,
        lockDuration: options.lockDurationMs ?? 30_000,
        stalledInterval: options.stalledIntervalMs ?? 30_000,
        maxStalledCount: 2,
        ...(options.prefix ? { prefix: options.prefix } : {}),
      },
    );
    worker.on('failed', (job, err) =>
      runtime.log.error({ err, job: name, id: job?.id, attempts: job?.attemptsMade }, 'job failed'),
    );
    worker.on('error', (err) =>
      repeated('error', failureKind('worker', err), { err, job: name }, 'worker error'),
    );
    workers.push(worker);

    if ((JOBS[name].options as JobOptions).cron && options.schedules !== false) {
      const queue = new Queue(queueNameFor(name), {
        connection,
        ...(options.prefix ? { prefix: options.prefix } : {}),
      });
      queue.on('error', redisError);
      queues.push(queue);
      scheduled.push({ name, queue });
      await registerSchedule(name, queue);
    }
  }
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  runtime.log.info({ queues: names.map(queueNameFor), workerId }, 'workers ready');

  // Redis may come back empty (a flush, a restart without persistence): the schedules would stop for good.
  // Every few seconds each one is looked up, and registered again when it is gone.
  let checking = false;
  const checkSchedules = async () => {
    if (checking) return;
    checking = true;
    try {
      for (const { name, queue } of scheduled) {
        if (await queue.getJobScheduler(schedulerIdFor(name))) continue;
        await registerSchedule(name, queue);
        runtime.log.warn({ job: name }, 'schedule missing from Redis: registered again');
      }
    } catch (err) {
      // Redis is away: the next check tries again (the connection errors are logged where they occur).
      void err;
    } finally {
      checking = false;
    }
  };
  const scheduleTimer =
    scheduled.length > 0
      ? setInterval(() => void checkSchedules(), options.scheduleCheckMs ?? SCHEDULE_CHECK_MS)
      : undefined;
  scheduleTimer?.unref();

  return {
    workers,
    producer,
    async close() {
      clearInterval(scheduleTimer);
      // Finish running jobs (close waits for them), then release the connections BullMQ does not own.
      await Promise.all(workers.map((w) => w.close()));
      await Promise.all(queues.map((q) => q.close()));
      await producer.close();
      await connection.quit().catch(() => connection.disconnect());
      repeated.flush();
    },
  };
}
