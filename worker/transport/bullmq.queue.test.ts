import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { desc } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BullProducer, ENQUEUE_TIMEOUT_MS } from '../../core/jobs/bullmq-producer';
import type { Database } from '../../drizzle/db';
import { workerHeartbeats } from '../../drizzle/schema';
import { JobTransportUnavailableError, queueNameFor } from '../../shared/jobs';
import { silentLogger } from '../../shared/logger';
import { transportRuntime } from '../../test/job-handlers';
import { closeRedisAndDatabase, openRedisAndDatabase } from '../../test/queue-resources';
import { privateRedis } from '../../test/redis-server';
import { until } from '../../test/until';
import { startBullWorkers } from './bullmq';

const redisUrl = process.env.REDIS_URL;

describe.skipIf(!redisUrl)('BullMQ transport (real Redis)', () => {
  const prefix = `test-${randomBytes(4).toString('hex')}`;
  const outerPrefix = prefix;
  let redis: Redis;
  let database: Database;

  beforeAll(async () => {
    ({ redis, database } = await openRedisAndDatabase());
  });
  afterAll(() => closeRedisAndDatabase({ redis, database }, prefix));

  it('runs a job produced by the server in a worker, with the real handler', async () => {
    const workers = await startBullWorkers({
      redisUrl: redisUrl!,
      prefix,
      runtime: transportRuntime(silentLogger, database),
      schedules: false,
    });
    const producer = new BullProducer(redisUrl!, prefix);
    try {
      await until(async () => producer.connection.status === 'ready', 5_000, 'producer connection');
      const health = await producer.health();
      expect(health).toMatchObject({ ok: true });
      expect(health.detail).toMatch(/1 worker connected/);
      await producer.enqueue('system.heartbeat', {});
      const beat = await until(
        async () =>
          (
            await database.db.select().from(workerHeartbeats).orderBy(desc(workerHeartbeats.seenAt)).limit(1)
          )[0],
        10_000,
        'heartbeat row',
      );
      expect(beat.transport).toBe('bullmq');
      expect(beat.pid).toBe(process.pid);
    } finally {
      await producer.close();
      await workers.close();
    }
  });

  it('registers cron schedulers in the business time zone', async () => {
    const workers = await startBullWorkers({
      redisUrl: redisUrl!,
      prefix,
      runtime: transportRuntime(silentLogger, database),
    });
    const queue = new Queue(queueNameFor('system.heartbeat'), { connection: redis, prefix });
    try {
      const schedulers = await queue.getJobSchedulers();
      expect(schedulers).toEqual([
        expect.objectContaining({ key: 'system.heartbeat:cron', pattern: '* * * * *', tz: 'Africa/Nairobi' }),
      ]);
    } finally {
      await queue.removeJobScheduler('system.heartbeat:cron');
      await queue.close();
      await workers.close();
    }
  });

  it('fails fast, without hanging, when Redis is down', async () => {
    const producer = new BullProducer('redis://127.0.0.1:1', prefix);
    try {
      const started = Date.now();
      await expect(producer.enqueue('system.heartbeat', {})).rejects.toBeInstanceOf(
        JobTransportUnavailableError,
      );
      expect(Date.now() - started).toBeLessThan(2_500);
      expect((await producer.health()).ok).toBe(false);
    } finally {
      await producer.close();
    }
  });

  it('gives up within 250 ms on a stalled Redis (CLIENT PAUSE), and works again after', async () => {
    const own = await privateRedis();
    await own.start();
    const producer = new BullProducer(own.url, prefix);
    try {
      await until(async () => producer.connection.status === 'ready', 5_000, 'producer connection');
      await producer.enqueue('system.heartbeat', {});
      await own.pause(3_000);
      const started = Date.now();
      await expect(producer.enqueue('system.heartbeat', {})).rejects.toBeInstanceOf(
        JobTransportUnavailableError,
      );
      expect(Date.now() - started).toBeLessThan(ENQUEUE_TIMEOUT_MS + 150);
      await new Promise((r) => setTimeout(r, 3_200));
      await expect(producer.enqueue('system.heartbeat', {})).resolves.toMatchObject({
        id: expect.any(String),
      });
    } finally {
      await producer.close();
      await own.stop();
    }
  });

  it('completes once, in the next worker, a job whose worker was killed mid-job', async () => {
    // Its own prefix: BullMQ's stalled-check key carries the interval of whichever worker set it last.
    const prefix = `${outerPrefix}-kill`;
    const spawnWorker = (holdMs: number) =>
      new Promise<ChildProcess>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', 'test/fixtures/slow-worker.ts', redisUrl!, prefix, String(holdMs)],
          { stdio: ['ignore', 'pipe', 'inherit'] },
        );
        child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(child));
        child.on('error', reject);
        child.on('exit', (code) => code && reject(new Error(`worker exited ${code}`)));
      });

    const producer = new BullProducer(redisUrl!, prefix);
    const first = await spawnWorker(60_000);
    let second: ChildProcess | undefined;
    try {
      await until(async () => producer.connection.status === 'ready', 5_000, 'producer connection');
      const { id } = await producer.enqueue('system.heartbeat', {}, { jobId: `kill-${prefix}` });
      await until(
        async () => Number(await redis.get(`${prefix}:started:${id}`)) === 1,
        10_000,
        'first start',
      );
      first.kill('SIGKILL');
      second = await spawnWorker(200);
      await until(
        async () => Number(await redis.get(`${prefix}:completed:${id}`)) >= 1,
        20_000,
        'completion',
      );
      await new Promise((r) => setTimeout(r, 1_500));
      expect(Number(await redis.get(`${prefix}:started:${id}`))).toBe(2);
      expect(Number(await redis.get(`${prefix}:completed:${id}`))).toBe(1);
      const queue = new Queue(queueNameFor('system.heartbeat'), { connection: redis, prefix });
      expect(await queue.getJobState(id)).toBe('completed');
      await queue.close();
    } finally {
      first.kill('SIGKILL');
      second?.kill('SIGTERM');
      await producer.close();
    }
  });
});
