import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseAlert } from '../../drizzle/outbox';
import { alertDeliveries, users } from '../../drizzle/schema';
import { fakeTelegram } from '../../test/fake-telegram';
import { createTestApp, type TestApp } from '../../test/helpers';
import { alertRecipients } from './alerts.queries';

const bot = fakeTelegram();
let t: TestApp;
beforeAll(async () => {
  const apiRoot = await bot.start();
  t = await createTestApp({ settings: { telegram: { token: '123456:TEST', apiRoot } } });
});
afterAll(async () => {
  await t.close();
  await bot.stop();
});

/** An alert recipient with a Telegram chat. */
async function withChat(role: 'ADMIN' | 'OPS', chatId: string) {
  const who = await t.signIn(role);
  await t.database.db.update(users).set({ telegramChatId: chatId }).where(eq(users.id, who.user.id));
  return who;
}

describe('Telegram alerts through the real telegraf client', () => {
  it('sends each alert once per recipient with a chat id, however often the event is emitted', async () => {
    await withChat('ADMIN', '111111');
    await withChat('OPS', '-1002222222');
    await t.signIn('OPS'); // no chat id: recorded, not sent
    const before = bot.sent.length;
    await raiseAlert(t.database.db, { kind: 'order.created', orderId: 501 });
    await raiseAlert(t.database.db, { kind: 'order.created', orderId: 501 });
    await t.jobs.drain();
    await t.jobs.enqueue('alert.fanout', { kind: 'order.created', orderId: 501 }, { jobId: 'rerun-501' });
    await t.jobs.drain();
    const sent = bot.sent.slice(before);
    const chats = await recipientChats();
    expect(sent.map((m) => m.chatId).sort()).toEqual(chats);
    expect(chats).toEqual(expect.arrayContaining(['-1002222222', '111111']));
    expect(sent[0]?.text).toMatch(/New order/);
    // An order that does not exist still alerts, by its reference.
    expect(sent[0]?.text).toBe('New order (501)');
    const rows = await t.database.db
      .select()
      .from(alertDeliveries)
      .where(eq(alertDeliveries.eventKey, 'order.created:501'));
    // Sent to every recipient with a chat; recorded for the rest (at least the OPS user without one).
    const expected = (await alertRecipients(t.database.db)).map((r) =>
      r.telegramChatId ? 'SENT' : 'RECORDED',
    );
    expect(expected).toContain('RECORDED');
    expect(rows.map((r) => r.status).sort()).toEqual(expected.sort());
  });

  it("waits out Telegram's 429 retry_after and then sends, without failing the job", async () => {
    await withChat('ADMIN', '333333');
    await withChat('OPS', '-1004444444');
    const chats = await recipientChats();
    bot.throttle(1);
    const before = bot.sent.length;
    const started = Date.now();
    await raiseAlert(t.database.db, { kind: 'payment.submitted', orderId: 77 });
    await t.jobs.drain();
    expect(bot.sent.length - before).toBe(chats.length);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const rows = await t.database.db
      .select()
      .from(alertDeliveries)
      .where(sql`${alertDeliveries.eventKey} = 'payment.submitted:77'`);
    expect(rows.filter((r) => r.status === 'SENT')).toHaveLength(chats.length);
  });
});

/** The chats every alert goes to: active ADMIN and OPS users with a chat id, sorted. */
async function recipientChats() {
  return (await alertRecipients(t.database.db))
    .map((r) => r.telegramChatId)
    .filter((c): c is string => c !== null)
    .sort();
}
