import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BullProducer } from '../../../core/jobs/bullmq-producer';
import { OutboxRelay } from '../../../core/jobs/outbox-relay';
import { mpesaCallbacks, orders, payments } from '../../../drizzle/schema';
import { silentLogger } from '../../../shared/logger';
import { makeOrder } from '../../../test/factories';
import { c2b, receipt } from '../../../test/fixtures/daraja';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { privateRedis } from '../../../test/redis-server';
import { until } from '../../../test/until';
import { type BullWorkers, startBullWorkers } from '../../../worker/transport/bullmq';

const SECRET = 'queue-callback-secret-0123456789';

// Services mode: PostgreSQL, BullMQ on a Redis of the test's own (so it can be stopped), the outbox relay.
describe.skipIf(!process.env.REDIS_URL || !process.env.DATABASE_URL)(
  'M-Pesa callbacks with BullMQ: answered without Redis, credited once when it is back',
  () => {
    const prefix = `mpesa-${randomBytes(4).toString('hex')}`;
    let redis: Awaited<ReturnType<typeof privateRedis>>;
    let producer: BullProducer;
    let t: TestApp;
    let workers: BullWorkers;
    let relay: OutboxRelay;

    beforeAll(async () => {
      redis = await privateRedis();
      await redis.start();
      producer = new BullProducer(redis.url, prefix);
      t = await createTestApp({
        jobs: producer,
        relayOutbox: false,
        settings: {
          mpesa: {
            baseUrl: 'https://sandbox.safaricom.co.ke',
            consumerKey: undefined,
            consumerSecret: undefined,
            shortcode: '174379',
            passkey: undefined,
            callbackSecret: SECRET,
            validateAccount: false,
            callbackIps: [],
          },
        },
      });
      workers = await startBullWorkers({
        redisUrl: redis.url,
        prefix,
        schedules: false,
        only: ['mpesa.process', 'mpesa.settle', 'alert.fanout'],
        runtime: {
          database: t.database,
          settings: t.deps.settings,
          llm: null,
          now: () => new Date(),
          log: silentLogger,
        },
      });
      relay = new OutboxRelay(t.database.db, producer.enqueue.bind(producer), { intervalMs: 100 }).start();
      await until(async () => producer.connection.status === 'ready', 5_000, 'producer');
    });
    afterAll(async () => {
      await relay?.stop();
      await workers?.close();
      await t?.close();
      await producer?.close();
      await redis?.stop();
    });

    const status = async (id: number) =>
      (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;

    it('replay: three deliveries at once through BullMQ credit one payment', async () => {
      const order = await makeOrder(t.database.db, { trucks: 2 });
      const body = c2b({ account: `MCH${order.id}`, amountKes: 64_000 });
      const answers = await Promise.all(
        [1, 2, 3].map(() => t.call('POST', `/api/payments/mpesa/c2b/confirmation/${SECRET}`, null, body)),
      );
      expect(answers.map((a) => a.json())).toEqual(Array(3).fill({ ResultCode: 0, ResultDesc: 'Accepted' }));
      await until(
        async () => (await status(order.id)).status === 'RECEIVED',
        15_000,
        'the order to be Received',
      );
      await new Promise((r) => setTimeout(r, 500));
      expect(await t.database.db.select().from(payments).where(eq(payments.orderId, order.id))).toHaveLength(
        1,
      );
    });

    it('typed receipts, then each C2B confirmation twice at once through BullMQ: each settled once, no credit (10 orders)', async () => {
      const trials = await Promise.all(
        Array.from({ length: 10 }, async () => {
          const customer = await t.signIn('CUSTOMER');
          const order = await makeOrder(t.database.db, { customerId: customer.user.id });
          const typed = receipt();
          const res = await t.call('POST', `/api/orders/${order.id}/payment`, customer, {
            method: 'M-Pesa',
            reference: typed,
          });
          expect(res.statusCode).toBe(200);
          return {
            order,
            typed,
            body: c2b({ account: `MCH${order.id}`, amountKes: 32_000, receipt: typed }),
          };
        }),
      );
      await Promise.all(
        trials.flatMap(({ body }) =>
          [1, 2].map(() => t.call('POST', `/api/payments/mpesa/c2b/confirmation/${SECRET}`, null, body)),
        ),
      );
      const refs = trials.map((x) => x.typed);
      await until(
        async () =>
          (
            await t.database.db
              .select()
              .from(mpesaCallbacks)
              .where(and(inArray(mpesaCallbacks.ref, refs), isNotNull(mpesaCallbacks.processedAt)))
          ).length === 20,
        30_000,
        'every delivery processed',
      );
      const phantom: number[] = [];
      for (const { order } of trials) {
        expect((await status(order.id)).status).toBe('RECEIVED');
        const rows = await t.database.db.select().from(payments).where(eq(payments.orderId, order.id));
        expect(rows).toHaveLength(1);
        if (rows[0]!.creditCents > 0) phantom.push(order.id);
      }
      expect(phantom, `orders with a phantom credit: ${phantom.length}/10`).toEqual([]);
    });

    it('answers callbacks while Redis is down (stored with their job in the outbox) and settles them when it returns', async () => {
      const order = await makeOrder(t.database.db);
      await redis.stop();
      const res = await t.call(
        'POST',
        `/api/payments/mpesa/c2b/confirmation/${SECRET}`,
        null,
        c2b({ account: `mch-${order.id}`, amountKes: 32_000 }),
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ResultCode: 0, ResultDesc: 'Accepted' });
      await new Promise((r) => setTimeout(r, 300));
      expect((await status(order.id)).status).toBe('AWAITING_PAYMENT');
      await redis.start();
      await until(
        async () => (await status(order.id)).status === 'RECEIVED',
        30_000,
        'the order to be Received',
      );
    });
  },
);
