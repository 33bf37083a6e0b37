import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BullProducer } from '../../core/jobs/bullmq-producer';
import { CRON_JOB_NAMES } from '../../shared/jobs';
import { createTestApp, type TestApp } from '../../test/helpers';
import { onlyHandlers, transportRuntime } from '../../test/job-handlers';
import { privateRedis } from '../../test/redis-server';
import { until } from '../../test/until';
import { type BullWorkers, startBullWorkers } from './bullmq';

const redisUrl = process.env.REDIS_URL;

/**
 * Issue 22, item 17: when Redis came back empty the repeatable jobs (M-Pesa reconciliation, heartbeat,
 * briefings, expiry) stopped until the worker restarted, and health said ok. The worker looks its
 * schedules up every few seconds and registers the missing ones again; readiness and health name the
 * missing ones meanwhile. FLUSHALL on a Redis this test starts.
 */
describe.skipIf(!redisUrl)('schedules after Redis comes back empty', () => {
  const prefix = `sched-${randomBytes(4).toString('hex')}`;
  let redis: Awaited<ReturnType<typeof privateRedis>>;
  let workers: BullWorkers;
  let producer: BullProducer;
  let t: TestApp;

  beforeAll(async () => {
    redis = await privateRedis();
    await redis.start();
    const idle = async () => undefined;
    workers = await startBullWorkers({
      redisUrl: redis.url,
      prefix,
      only: CRON_JOB_NAMES,
      handlers: onlyHandlers(Object.fromEntries(CRON_JOB_NAMES.map((n) => [n, idle]))),
      runtime: transportRuntime(),
      scheduleCheckMs: 3_000,
    });
    producer = new BullProducer(redis.url, prefix);
    await until(async () => producer.connection.status === 'ready', 5_000, 'producer');
    t = await createTestApp({ jobs: producer });
  });
  afterAll(async () => {
    await t?.close();
    await workers?.close();
    await producer?.close();
    await redis?.stop();
  });

  it('registers them again by itself, and readiness says which are missing meanwhile', async () => {
    expect(await producer.missingSchedules()).toEqual([]);
    expect((await t.app.inject({ url: '/api/readyz' })).statusCode).toBe(200);

    const admin = new Redis(redis.url);
    await admin.flushall();
    admin.disconnect();

    const ready = await t.app.inject({ url: '/api/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().error).toMatch(/schedules missing: .*mpesa\.reconcile/);
    const health = await t.app.inject({ url: '/api/health' });
    expect(health.json().status).toBe('degraded');
    expect(health.json().jobs.missingSchedules).toEqual(expect.arrayContaining(['system.heartbeat']));

    await until(async () => (await producer.missingSchedules()).length === 0, 10_000, 'schedules back');
    expect((await t.app.inject({ url: '/api/readyz' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/health' })).json().jobs.missingSchedules).toEqual([]);
  }, 30_000);
});
