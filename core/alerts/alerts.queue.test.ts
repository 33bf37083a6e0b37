import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../drizzle/db';
import { alertDeliveries, users } from '../../drizzle/schema';
import { silentLogger } from '../../shared/logger';
import { fakeTelegram } from '../../test/fake-telegram';
import { createTestDatabase, testSettings } from '../../test/helpers';
import { until } from '../../test/until';
import { startBullWorkers } from '../../worker/transport/bullmq';
import { createUser } from '../auth/auth.service';
import { BullProducer } from '../jobs/bullmq-producer';

const redisUrl = process.env.REDIS_URL;

describe.skipIf(!redisUrl)('alert fan-out on BullMQ (real Redis) with a fake Telegram Bot API', () => {
  const prefix = `alerts-${randomBytes(4).toString('hex')}`;
  const bot = fakeTelegram();
  let apiRoot: string;
  let database: Database;

  beforeAll(async () => {
    apiRoot = await bot.start();
    database = await createTestDatabase();
    for (const [i, chat] of ['5550001', '5550002'].entries()) {
      const u = await createUser(database.db, {
        name: `Ops ${i}`,
        email: `ops${i}@q.test`,
        phone: '',
        password: 'password123',
        role: i ? 'OPS' : 'ADMIN',
      });
      await database.db.update(users).set({ telegramChatId: chat }).where(eq(users.id, u.id));
    }
  });
  afterAll(async () => {
    await database.close();
    await bot.stop();
  });

  it('sends each alert exactly once per recipient under re-runs, and waits out a 429', async () => {
    const workers = await startBullWorkers({
      redisUrl: redisUrl!,
      prefix,
      schedules: false,
      only: ['alert.fanout', 'alert.telegram'],
      runtime: {
        database,
        settings: testSettings({ telegram: { token: '42:QUEUE', apiRoot } }),
        llm: null,
        now: () => new Date(),
        log: { ...silentLogger, error: (o: unknown) => console.error('WORKER', o) },
      },
    });
    const producer = new BullProducer(redisUrl!, prefix);
    try {
      await until(async () => producer.connection.status === 'ready', 5_000, 'producer');
      bot.throttle(1);
      await producer.enqueue('alert.fanout', { kind: 'stock.low', day: '2026-11-23' });
      await producer.enqueue('alert.fanout', { kind: 'stock.low', day: '2026-11-23' });
      // A re-run of the same event under another job id must not send again either.
      await producer.enqueue(
        'alert.fanout',
        { kind: 'stock.low', day: '2026-11-23' },
        { jobId: 'manual-rerun' },
      );
      await until(async () => bot.sent.length >= 2, 15_000, 'two messages');
      await new Promise((r) => setTimeout(r, 1_500));
      expect(bot.sent.map((m) => m.chatId).sort()).toEqual(['5550001', '5550002']);
      const rows = await database.db
        .select()
        .from(alertDeliveries)
        .where(sql`${alertDeliveries.eventKey} = 'stock.low:yard@2026-11-23'`);
      expect(rows.map((r) => r.status)).toEqual(['SENT', 'SENT']);
    } finally {
      await producer.close();
      await workers.close();
    }
  });
});
