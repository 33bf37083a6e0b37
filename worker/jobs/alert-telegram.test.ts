import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertDeliveries, users } from '../../drizzle/schema';
import { emitAlert } from '../../server/alerts';
import { createTestApp, type TestApp } from '../../test/helpers';

/** A local fake of the Telegram Bot API: records sendMessage calls; answers 429 once when asked to. */
function fakeBotApi() {
  const sent: Array<{ chat_id: string; text: string }> = [];
  let throttleNext = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (!/\/bot[^/]+\/sendMessage$/.test(req.url ?? '')) {
        res.statusCode = 404;
        return res.end(JSON.stringify({ ok: false, error_code: 404, description: 'Not Found' }));
      }
      if (throttleNext > 0) {
        throttleNext -= 1;
        res.statusCode = 429;
        return res.end(
          JSON.stringify({
            ok: false,
            error_code: 429,
            description: 'Too Many Requests: retry after 1',
            parameters: { retry_after: 1 },
          }),
        );
      }
      const msg = JSON.parse(body);
      sent.push({ chat_id: String(msg.chat_id), text: msg.text });
      res.end(
        JSON.stringify({
          ok: true,
          result: {
            message_id: sent.length,
            date: 0,
            chat: { id: Number(msg.chat_id), type: 'private' },
            text: msg.text,
          },
        }),
      );
    });
  });
  return {
    sent,
    throttle: (n: number) => {
      throttleNext = n;
    },
    start: () =>
      new Promise<string>((r) =>
        server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const bot = fakeBotApi();
let t: TestApp;
beforeAll(async () => {
  const apiRoot = await bot.start();
  t = await createTestApp({ telegram: { token: '123456:TEST', apiRoot } });
});
afterAll(async () => {
  await t.close();
  await bot.stop();
});

describe('Telegram alerts through the real telegraf client', () => {
  it('sends each alert once per recipient with a chat id, however often the event is emitted', async () => {
    const admin = await t.signIn('ADMIN');
    const ops = await t.signIn('OPS');
    await t.signIn('OPS'); // no chat id: recorded, not sent
    await t.database.db.update(users).set({ telegramChatId: '111111' }).where(eq(users.id, admin.user.id));
    await t.database.db.update(users).set({ telegramChatId: '-1002222222' }).where(eq(users.id, ops.user.id));
    await emitAlert(t.deps, 'order.created', 501);
    await emitAlert(t.deps, 'order.created', 501);
    await t.jobs.drain();
    await t.jobs.enqueue('alert.fanout', { kind: 'order.created', refId: '501' }, { jobId: 'rerun-501' });
    await t.jobs.drain();
    expect(bot.sent.map((m) => m.chat_id).sort()).toEqual(['-1002222222', '111111']);
    expect(bot.sent[0]?.text).toMatch(/New order/);
    // An order that does not exist still alerts, by its reference.
    expect(bot.sent[0]?.text).toBe('New order (501)');
    const rows = await t.database.db
      .select()
      .from(alertDeliveries)
      .where(eq(alertDeliveries.eventKey, 'order.created:501'));
    expect(rows.map((r) => r.status).sort()).toEqual(['RECORDED', 'SENT', 'SENT']);
  });

  it("waits out Telegram's 429 retry_after and then sends, without failing the job", async () => {
    bot.throttle(1);
    const before = bot.sent.length;
    const started = Date.now();
    await emitAlert(t.deps, 'payment.submitted', 77);
    await t.jobs.drain();
    expect(bot.sent.length - before).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const rows = await t.database.db
      .select()
      .from(alertDeliveries)
      .where(sql`${alertDeliveries.eventKey} = 'payment.submitted:77'`);
    expect(rows.filter((r) => r.status === 'SENT')).toHaveLength(2);
  });
});
