import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../drizzle/db';
import { alertDeliveries, users } from '../../drizzle/schema';
import { createUser } from '../../server/features/auth/auth.service';
import { BullProducer } from '../../server/jobs/bullmq-producer';
import { createTestDatabase } from '../../test/helpers';
import { until } from '../../test/until';
import { createHandlers } from '../handlers';
import { createBullEnqueue, startBullWorkers } from '../transport/bullmq';

const redisUrl = process.env.REDIS_URL;

describe.skipIf(!redisUrl)('alert fan-out on BullMQ (real Redis) with a fake Telegram Bot API', () => {
  const prefix = `alerts-${randomBytes(4).toString('hex')}`;
  const sent: string[] = [];
  let throttle = 0;
  let server: Server;
  let apiRoot: string;
  let database: Database;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        if (throttle > 0) {
          throttle -= 1;
          res.statusCode = 429;
          return res.end(
            JSON.stringify({
              ok: false,
              error_code: 429,
              description: 'Too Many Requests',
              parameters: { retry_after: 1 },
            }),
          );
        }
        const msg = JSON.parse(body);
        sent.push(`${msg.chat_id}|${msg.text}`);
        res.end(
          JSON.stringify({
            ok: true,
            result: { message_id: sent.length, date: 0, chat: { id: 1, type: 'private' } },
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    apiRoot = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('sends each alert exactly once per recipient under re-runs, and waits out a 429', async () => {
    const follow = createBullEnqueue(redisUrl!, prefix);
    const workers = await startBullWorkers({
      redisUrl: redisUrl!,
      prefix,
      schedules: false,
      only: ['alert.fanout', 'alert.telegram'],
      log: { info() {}, error: (o: unknown) => console.error('WORKER', o) },
      handlers: createHandlers({
        database,
        enqueue: follow.enqueue,
        telegram: { token: '42:QUEUE', apiRoot },
        llm: null,
      }),
    });
    const producer = new BullProducer(redisUrl!, prefix);
    try {
      await until(async () => producer.connection.status === 'ready', 5_000, 'producer');
      throttle = 1;
      await producer.enqueue('alert.fanout', { kind: 'stock.low', refId: 'yard@2026-11-23' });
      await producer.enqueue('alert.fanout', { kind: 'stock.low', refId: 'yard@2026-11-23' });
      // A re-run of the same event under another job id must not send again either.
      await producer.enqueue(
        'alert.fanout',
        { kind: 'stock.low', refId: 'yard@2026-11-23' },
        { jobId: 'manual-rerun' },
      );
      await until(async () => sent.length >= 2, 15_000, 'two messages');
      await new Promise((r) => setTimeout(r, 1_500));
      expect(sent.map((s) => s.split('|')[0]).sort()).toEqual(['5550001', '5550002']);
      const rows = await database.db
        .select()
        .from(alertDeliveries)
        .where(sql`${alertDeliveries.eventKey} = 'stock.low:yard@2026-11-23'`);
      expect(rows.map((r) => r.status)).toEqual(['SENT', 'SENT']);
    } finally {
      await producer.close();
      await workers.close();
      await follow.close();
    }
  });
});
