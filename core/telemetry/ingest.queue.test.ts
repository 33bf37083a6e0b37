import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../drizzle/db';
import { rows as sqlRows } from '../../drizzle/db';
import { trucks } from '../../drizzle/schema';
import { queueNameFor } from '../../shared/jobs';
import { createTestDatabase } from '../../test/helpers';
import { until } from '../../test/until';
import { BullProducer } from '../jobs/bullmq-producer';

const redisUrl = process.env.REDIS_URL;
const databaseUrl = process.env.DATABASE_URL;

// A worker process writing to the same PostgreSQL database needs DATABASE_URL (PGlite is one process's).
describe.skipIf(!redisUrl || !databaseUrl)(
  'telemetry.ingest under a killed worker (real Redis and PostgreSQL)',
  () => {
    const prefix = `tel-${randomBytes(4).toString('hex')}`;
    let database: Database;
    let dbUrl = '';

    beforeAll(async () => {
      database = await createTestDatabase();
      await database.db.insert(trucks).values({ id: 'TRK-Q', plate: 'KQQ 1', deviceId: 'dev-q' });
    });
    afterAll(() => database.close());

    it('loses and doubles no position when a worker is killed mid-batch', async () => {
      const [current] = await sqlRows<{ name: string }>(database.db, sql`select current_database() as name`);
      const url = new URL(databaseUrl!);
      url.pathname = `/${current!.name}`;
      dbUrl = url.toString();
      const spawnWorker = (slowMs: number) =>
        new Promise<ChildProcess>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            [
              '--import',
              'tsx',
              'test/fixtures/telemetry-worker.ts',
              redisUrl!,
              dbUrl,
              prefix,
              String(slowMs),
            ],
            {
              stdio: ['ignore', 'pipe', 'inherit'],
            },
          );
          child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(child));
          child.on('error', reject);
        });
      const producer = new BullProducer(redisUrl!, prefix);
      const first = await spawnWorker(3_000);
      let second: ChildProcess | undefined;
      try {
        await until(async () => producer.connection.status === 'ready', 5_000, 'producer');
        const t0 = Date.parse('2026-11-23T06:00:00Z');
        const batches = Array.from({ length: 4 }, (_, b) =>
          Array.from({ length: 250 }, (_, i) => ({
            deviceId: 'dev-q',
            truckId: 'TRK-Q',
            lat: -1.1 + (b * 250 + i) * 1e-5,
            lng: 37,
            fixTime: new Date(t0 + (b * 250 + i) * 1000).toISOString(),
            speedKmh: 30,
            heading: null,
            altitude: null,
            accuracy: null,
            battery: null,
            attributes: {},
          })),
        );
        for (const positions of batches) await producer.enqueue('telemetry.ingest', { positions });
        // The slow worker holds its first batch (history written, then stalls): kill it there.
        await until(
          async () =>
            (
              await sqlRows<{ n: number }>(database.db, sql`select count(*)::int as n from truck_positions`)
            )[0]!.n > 0,
          15_000,
          'first writes',
        );
        first.kill('SIGKILL');
        second = await spawnWorker(0);
        await until(
          async () =>
            (
              await sqlRows<{ n: number }>(database.db, sql`select count(*)::int as n from truck_positions`)
            )[0]!.n === 1000,
          30_000,
          'all positions',
        );
        await new Promise((r) => setTimeout(r, 1_000));
        const [stats] = await sqlRows<{ n: number; distinct_n: number }>(
          database.db,
          sql`select count(*)::int as n, count(distinct fix_time)::int as distinct_n from truck_positions`,
        );
        expect(stats).toEqual({ n: 1000, distinct_n: 1000 });
        const [latest] = await sqlRows<{ fix_time: Date | string }>(
          database.db,
          sql`select fix_time from truck_latest where truck_id = 'TRK-Q'`,
        );
        expect(new Date(latest!.fix_time).toISOString()).toBe(new Date(t0 + 999 * 1000).toISOString());
        // Written batches leave nothing behind in Redis: no completed job, no payload.
        const queue = new Queue(queueNameFor('telemetry.ingest'), {
          connection: producer.connection,
          prefix,
        });
        try {
          expect(await queue.getJobCounts('completed', 'waiting', 'active', 'failed')).toEqual({
            completed: 0,
            waiting: 0,
            active: 0,
            failed: 0,
          });
          expect(
            await producer.connection.keys(`${prefix}:${queueNameFor('telemetry.ingest')}:[0-9]*`),
          ).toEqual([]);
        } finally {
          await queue.close();
        }
      } finally {
        first.kill('SIGKILL');
        second?.kill('SIGTERM');
        await producer.close();
      }
    });
  },
);
