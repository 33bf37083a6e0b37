import { randomBytes } from 'node:crypto';
import { eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, users } from '../../drizzle/schema';
import { silentLogger } from '../../shared/logger';
import { fakeTelegram } from '../../test/fake-telegram';
import { createTestApp, type SignedIn, type TestApp } from '../../test/helpers';
import { privateRedis } from '../../test/redis-server';
import { until } from '../../test/until';
import { type BullWorkers, startBullWorkers } from '../../worker/transport/bullmq';
import { BullProducer } from './bullmq-producer';
import { OutboxRelay } from './outbox-relay';

// The queue project runs with REDIS_URL (services mode); these tests start a Redis of their own to stop and pause.
describe.skipIf(!process.env.REDIS_URL)(
  'alerts while Redis is stopped or stalled (BullMQ, outbox relay)',
  () => {
    const bot = fakeTelegram();
    const prefix = `outbox-${randomBytes(4).toString('hex')}`;
    let redis: Awaited<ReturnType<typeof privateRedis>>;
    let t: TestApp;
    let customer: SignedIn;
    let workers: BullWorkers;
    let relay: OutboxRelay;

    beforeAll(async () => {
      const apiRoot = await bot.start();
      redis = await privateRedis();
      await redis.start();
      // The server of the services mode: a BullMQ producer, no relay of its own.
      t = await createTestApp({
        jobs: new BullProducer(redis.url, prefix),
        relayOutbox: false,
        settings: { telegram: { token: '42:OUTBOX', apiRoot } },
      });
      const admin = await t.signIn('ADMIN');
      const ops = await t.signIn('OPS');
      await t.database.db.update(users).set({ telegramChatId: '8000001' }).where(eq(users.id, admin.user.id));
      await t.database.db.update(users).set({ telegramChatId: '8000002' }).where(eq(users.id, ops.user.id));
      customer = await t.signIn('CUSTOMER');
      // The worker process: BullMQ workers and the outbox relay.
      workers = await startBullWorkers({
        redisUrl: redis.url,
        prefix,
        schedules: false,
        only: ['alert.fanout', 'alert.telegram'],
        runtime: {
          database: t.database,
          settings: t.deps.settings,
          llm: null,
          now: () => new Date(),
          log: silentLogger,
        },
      });
      relay = new OutboxRelay(t.database.db, workers.producer.enqueue.bind(workers.producer), {
        intervalMs: 200,
      }).start();
    });
    afterAll(async () => {
      await relay?.stop();
      await workers?.close();
      await t?.close();
      await redis?.stop();
      await bot.stop();
    });

    async function twentyOrders(tag: string) {
      const ids: number[] = [];
      let slowest = 0;
      for (let i = 0; i < 20; i++) {
        const started = Date.now();
        const res = await t.call('POST', '/api/orders', customer, {
          site: `${tag} ${i}, Ruiru`,
          sandType: 'smooth',
          trucks: 1,
        });
        slowest = Math.max(slowest, Date.now() - started);
        expect(res.statusCode).toBe(201);
        ids.push(res.json().id);
      }
      return { ids, slowest };
    }

    function expectEachOnce(ids: number[]) {
      for (const id of ids) {
        const chats = bot.sent.filter((m) => m.text.includes(`order #${id},`)).map((m) => m.chatId);
        expect(chats.sort(), `order ${id}`).toEqual(['8000001', '8000002']);
      }
    }

    it('with Redis stopped: orders are taken at once, and every alert is delivered exactly once after Redis returns', async () => {
      await redis.stop();
      const before = bot.sent.length;
      const { ids, slowest } = await twentyOrders('stopped');
      expect(slowest).toBeLessThan(1_000);
      await new Promise((r) => setTimeout(r, 1_000));
      expect(bot.sent.length).toBe(before);
      await redis.start();
      await until(async () => bot.sent.length >= before + 40, 60_000, '40 messages after Redis returned');
      await new Promise((r) => setTimeout(r, 1_500));
      expect(bot.sent.length - before).toBe(40);
      expectEachOnce(ids);
      expect(await t.database.db.select().from(outbox).where(isNull(outbox.sentAt))).toHaveLength(0);
    });

    it('with Redis paused: orders are taken at once, and every alert is delivered exactly once after the pause', async () => {
      const before = bot.sent.length;
      await redis.pause(4_000);
      const { ids, slowest } = await twentyOrders('paused');
      expect(slowest).toBeLessThan(1_000);
      await until(async () => bot.sent.length >= before + 40, 60_000, '40 messages after the pause');
      await new Promise((r) => setTimeout(r, 1_500));
      expect(bot.sent.length - before).toBe(40);
      expectEachOnce(ids);
    });
  },
);
