import { eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertDeliveries, outbox, users } from '../../drizzle/schema';
import { silentLogger } from '../../shared/logger';
import { fakeTelegram } from '../../test/fake-telegram';
import { createTestApp, type SignedIn, type TestApp } from '../../test/helpers';
import { InProcessRunner } from '../../worker/transport/in-process';
import { relayOutbox } from './outbox-relay';

const bot = fakeTelegram();
let t: TestApp;
let customer: SignedIn;

beforeAll(async () => {
  const apiRoot = await bot.start();
  // This "process" takes orders but never relays its outbox: as if it died after each commit.
  t = await createTestApp({ relayOutbox: false, settings: { telegram: { token: '42:OUTBOX', apiRoot } } });
  const admin = await t.signIn('ADMIN');
  const ops = await t.signIn('OPS');
  await t.database.db.update(users).set({ telegramChatId: '7000001' }).where(eq(users.id, admin.user.id));
  await t.database.db.update(users).set({ telegramChatId: '7000002' }).where(eq(users.id, ops.user.id));
  customer = await t.signIn('CUSTOMER');
});
afterAll(async () => {
  await t.close();
  await bot.stop();
});

const order = (i: number) => ({ site: `Juja, plot ${i}`, sandType: 'coarse', trucks: 1 });

describe('the transactional outbox', () => {
  it('loses nothing when the process dies between commit and enqueue: the next relay delivers every alert once', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await t.call('POST', '/api/orders', customer, order(i));
      expect(res.statusCode).toBe(201);
      ids.push(res.json().id);
    }
    // Committed with their orders, not yet sent anywhere: each order's staff alert and its customer news.
    const committed = await t.database.db.select().from(outbox).where(isNull(outbox.sentAt));
    expect(committed.filter((r) => r.job === 'alert.fanout')).toHaveLength(20);
    expect(committed.filter((r) => r.job === 'customer.notify')).toHaveLength(20);
    expect(committed).toHaveLength(40);
    expect(await t.database.db.select().from(alertDeliveries)).toHaveLength(0);

    // The next process starts, relays and runs the jobs; a second relay afterwards adds nothing.
    const restarted = () =>
      new InProcessRunner(
        {
          database: t.database,
          settings: t.deps.settings,
          llm: null,
          now: () => new Date(),
          log: silentLogger,
        },
        { outboxIntervalMs: 60_000 },
      );
    for (const runner of [restarted(), restarted()]) {
      await runner.drain();
      await runner.close();
    }
    expect(await t.database.db.select().from(outbox).where(isNull(outbox.sentAt))).toHaveLength(0);
    const deliveries = await t.database.db.select().from(alertDeliveries);
    expect(deliveries).toHaveLength(40);
    expect(new Set(deliveries.map((d) => `${d.eventKey}|${d.recipientId}`)).size).toBe(40);
    // Each order's alert reached each chat exactly once.
    expect(bot.sent).toHaveLength(40);
    for (const id of ids) {
      const texts = bot.sent.filter((m) => m.text.includes(`order #${id},`));
      expect(texts.map((m) => m.chatId).sort(), `order ${id}`).toEqual(['7000001', '7000002']);
    }
  });

  it('keeps a row it could not enqueue, with the error and a later retry time, and sends nothing after it', async () => {
    await t.call('POST', '/api/orders', customer, order(100));
    await t.call('POST', '/api/orders', customer, order(101));
    const result = await relayOutbox(t.database.db, async () => {
      throw new Error('queue is down');
    });
    expect(result).toMatchObject({ sent: 0, failed: 1 });
    // Two orders, each with its alert and its customer news: the first row failed, the relay stopped there.
    const pending = await t.database.db.select().from(outbox).where(isNull(outbox.sentAt));
    expect(pending).toHaveLength(4);
    const [first, ...after] = pending.sort((a, b) => a.id - b.id);
    expect(first).toMatchObject({ attempts: 1, lastError: 'queue is down' });
    expect(first!.availableAt.getTime()).toBeGreaterThan(Date.now());
    for (const row of after) expect(row).toMatchObject({ attempts: 0, lastError: null });
  });
});
