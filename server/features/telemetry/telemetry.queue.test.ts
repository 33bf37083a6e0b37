import { randomBytes } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BullProducer } from '../../../core/jobs/bullmq-producer';
import { telemetryQuarantine, truckPositions } from '../../../drizzle/schema';
import { silentLogger } from '../../../shared/logger';
import { makeLatestPosition, makeTruck, unique } from '../../../test/factories';
import { sendPoisonRounds, storedPositions } from '../../../test/fixtures/telemetry-poison';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { privateRedis } from '../../../test/redis-server';
import { until } from '../../../test/until';
import { type BullWorkers, startBullWorkers } from '../../../worker/transport/bullmq';

// Services mode: PostgreSQL, and a Redis of the test's own (so it can be paused and stopped).
describe.skipIf(!process.env.REDIS_URL || !process.env.DATABASE_URL)(
  'telemetry with BullMQ: acknowledged means stored, and a fast 503 when the queue cannot take it',
  () => {
    const prefix = `telemetry-${randomBytes(4).toString('hex')}`;
    let redis: Awaited<ReturnType<typeof privateRedis>>;
    let producer: BullProducer;
    let t: TestApp;
    let workers: BullWorkers;

    beforeAll(async () => {
      redis = await privateRedis();
      await redis.start();
      producer = new BullProducer(redis.url, prefix);
      t = await createTestApp({ jobs: producer, relayOutbox: false });
      workers = await startBullWorkers({
        redisUrl: redis.url,
        prefix,
        schedules: false,
        only: ['telemetry.ingest'],
        runtime: {
          database: t.database,
          settings: t.deps.settings,
          llm: null,
          now: () => new Date(),
          log: silentLogger,
        },
      });
      await until(async () => producer.connection.status === 'ready', 5_000, 'producer');
    });
    afterAll(async () => {
      await workers?.close();
      await t?.close();
      await producer?.close();
      await redis?.stop();
    });

    const tracked = () => makeTruck(t.database.db, { deviceId: unique('dev-').toLowerCase() });
    const stored = (truckIds: string[]) => storedPositions(t.database.db, truckIds);

    it('stores all 199 acknowledged positions of two devices with poison from a third, in one batch and across batches', async () => {
      const [a, b, p] = [await tracked(), await tracked(), await tracked()];
      const devices = { a: a.deviceId!, b: b.deviceId!, p: p.deviceId! };
      const { acknowledged, poisonAcknowledged } = await sendPoisonRounds(t, devices, Date.now());
      await until(async () => (await stored([a.id, b.id])) >= acknowledged, 20_000, 'acknowledged positions');
      await until(async () => (await stored([p.id])) >= poisonAcknowledged, 20_000, 'poison positions');
      await new Promise((r) => setTimeout(r, 1_000));
      expect({ acknowledged, stored: await stored([a.id, b.id]) }).toEqual({
        acknowledged: 398,
        stored: 398,
      });
      expect({ acknowledged: poisonAcknowledged, stored: await stored([p.id]) }).toEqual({
        acknowledged: 10,
        stored: 10,
      });
    });

    it('a batch with rows the database refuses: the worker stores the other 199 and quarantines those', async () => {
      const [a, b, p] = [await tracked(), await tracked(), await tracked()];
      const t0 = Date.now() - 7200_000;
      const position = (truck: typeof a, i: number, attributes: Record<string, string | number> = {}) => ({
        deviceId: truck.deviceId!,
        truckId: truck.id,
        lat: -1.1,
        lng: 37,
        fixTime: new Date(t0 + i * 1000).toISOString(),
        speedKmh: 30,
        heading: null,
        altitude: null,
        accuracy: null,
        battery: null,
        attributes,
      });
      const valid = Array.from({ length: 199 }, (_, i) => position(i % 2 ? a : b, i));
      const poison = [
        position(p, 1, { note: 'a\u0000b' }),
        position(p, 2, { half: '\ud800' }),
        { ...position(p, 3), truckId: `TRK-GONE-${unique()}` },
      ];
      await producer.enqueue('telemetry.ingest', {
        positions: [...valid.slice(0, 99), ...poison, ...valid.slice(99)],
      });
      await until(
        async () =>
          (
            await t.database.db
              .select()
              .from(telemetryQuarantine)
              .where(inArray(telemetryQuarantine.deviceId, [p.deviceId!]))
          ).length === 3,
        20_000,
        'quarantined rows',
      );
      expect(await stored([a.id, b.id])).toBe(199);
      expect(
        await t.database.db
          .select()
          .from(truckPositions)
          .where(inArray(truckPositions.truckId, [p.id])),
      ).toEqual([]);
    });

    /** Answers and their times for fixes sent while Redis cannot take them. */
    async function whileUnavailable(deviceId: string, count: number) {
      const results: Array<{ status: number; ms: number }> = [];
      const one = async (i: number) => {
        const started = performance.now();
        const res = await t.call(
          'POST',
          `/api/telemetry/osmand?id=${deviceId}&lat=-1.1&lon=37.0&timestamp=${Math.floor(Date.now() / 1000) - 600 + i}`,
        );
        results.push({ status: res.statusCode, ms: performance.now() - started });
      };
      // Some at once (one batch), then one after another (a batch each).
      await Promise.all(Array.from({ length: count }, (_, i) => one(i)));
      for (let i = count; i < 2 * count; i++) await one(i);
      return results;
    }

    it('answers 503 within ~300 ms while Redis is paused, and 200 again after', async () => {
      const truck = await tracked();
      await makeLatestPosition(t.database.db, { truckId: truck.id });
      await redis.pause(6_000);
      const results = await whileUnavailable(truck.deviceId!, 5);
      // An implausible fix is never a 503: it is answered at once, whatever the queue does.
      const discarded = await t.call(
        'GET',
        `/api/telemetry/osmand?id=${truck.deviceId}&lat=-1.1&lon=37.0&timestamp=9007199254740993`,
      );
      expect(discarded.statusCode).toBe(200);
      const worst = Math.max(...results.map((r) => r.ms));
      console.info(
        `paused Redis: ${results.length} fixes, statuses ${[...new Set(results.map((r) => r.status))]}, ` +
          `slowest ${worst.toFixed(0)} ms, median ${results
            .map((r) => r.ms)
            .sort((x, y) => x - y)
            [results.length >> 1]!.toFixed(0)} ms`,
      );
      expect(results.every((r) => r.status === 503)).toBe(true);
      expect(worst).toBeLessThan(320);
      await until(
        async () =>
          (
            await t.call(
              'POST',
              `/api/telemetry/osmand?id=${truck.deviceId}&lat=-1.1&lon=37.0&timestamp=${Math.floor(Date.now() / 1000)}`,
            )
          ).statusCode === 200,
        15_000,
        'a 200 after the pause',
      );
    });

    it('answers 503 at once while Redis is stopped, and 200 again once it is back', async () => {
      const truck = await tracked();
      await redis.stop();
      try {
        const results = await whileUnavailable(truck.deviceId!, 5);
        const heartbeat = await t.call('POST', `/api/telemetry/osmand?id=${truck.deviceId}&batt=50`);
        const worst = Math.max(...results.map((r) => r.ms));
        console.info(
          `stopped Redis: ${results.length} fixes, statuses ${[...new Set(results.map((r) => r.status))]}, slowest ${worst.toFixed(0)} ms`,
        );
        expect(results.every((r) => r.status === 503)).toBe(true);
        expect(heartbeat.statusCode).toBe(503);
        expect(worst).toBeLessThan(320);
      } finally {
        await redis.start();
      }
      await until(
        async () =>
          (
            await t.call(
              'POST',
              `/api/telemetry/osmand?id=${truck.deviceId}&lat=-1.1&lon=37.0&timestamp=${Math.floor(Date.now() / 1000)}`,
            )
          ).statusCode === 200,
        20_000,
        'a 200 once Redis is back',
      );
      await until(async () => (await stored([truck.id])) === 1, 20_000, 'the acknowledged fix stored');
    });
  },
);
