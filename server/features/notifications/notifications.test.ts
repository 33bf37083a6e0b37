import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseAlert } from '../../../drizzle/outbox';
import { alertDeliveries } from '../../../drizzle/schema';
import { fakeTelegram } from '../../../test/fake-telegram';
import { createTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('notification targets', () => {
  it('lists ADMIN and OPS users with their chat ids and the bot state; sets and clears chat ids', async () => {
    const admin = await t.signIn('ADMIN', { name: 'Amina Admin' });
    const ops = await t.signIn('OPS', { name: 'Otieno Ops' });
    await t.signIn('CUSTOMER');
    const list = await t.call('GET', '/api/admin/notification-targets', admin);
    expect(list.statusCode).toBe(200);
    expect(list.json().botConfigured).toBe(false);
    expect(
      list
        .json()
        .recipients.map((r: { role: string }) => r.role)
        .sort(),
    ).toEqual(['ADMIN', 'OPS']);

    const put = (id: number, telegramChatId: unknown) =>
      t.call('PUT', `/api/admin/notification-targets/${id}`, admin, { telegramChatId });
    expect((await put(ops.user.id, '123456789')).json()).toMatchObject({
      id: ops.user.id,
      telegramChatId: '123456789',
    });
    expect((await put(ops.user.id, -1001234567890)).json().telegramChatId).toBe('-1001234567890');
    for (const bad of ['abc', '-12345', '12ab', '+2547']) {
      const res = await put(ops.user.id, bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toEqual({ error: 'Telegram chat id must be numeric; group ids start with -100.' });
    }
    expect((await put(ops.user.id, '')).json().telegramChatId).toBeNull();
    const customer = await t.signIn('CUSTOMER');
    expect((await put(customer.user.id, '123456')).statusCode).toBe(404);
    expect((await t.call('GET', '/api/admin/notification-targets', ops)).statusCode).toBe(403);
  });
});

describe('a recipient Telegram refuses', () => {
  it('is shown failing with the refusal until an alert goes through or the chat changes', async () => {
    const bot = fakeTelegram();
    const apiRoot = await bot.start();
    const app = await createTestApp({ settings: { telegram: { token: '123456:TEST', apiRoot } } });
    try {
      const admin = await app.signIn('ADMIN', { name: 'Amina Admin' });
      const ops = await app.signIn('OPS', { name: 'Otieno Ops' });
      const put = (id: number, telegramChatId: string) =>
        app.call('PUT', `/api/admin/notification-targets/${id}`, admin, { telegramChatId });
      await put(admin.user.id, '111111111');
      await put(ops.user.id, '222222222');
      const failing = async () => {
        const list = (await app.call('GET', '/api/admin/notification-targets', admin)).json();
        return Object.fromEntries(
          list.recipients.map((r: { id: number; failing: unknown }) => [r.id, r.failing]),
        );
      };
      let order = 9100;
      const alert = async () => {
        await raiseAlert(app.database.db, { kind: 'order.created', orderId: ++order });
        await app.jobs.drain();
      };

      await alert();
      expect(await failing()).toEqual({ [admin.user.id]: null, [ops.user.id]: null });

      bot.refuse(400);
      await alert();
      const refused = await failing();
      expect(refused[ops.user.id]).toEqual({
        error: expect.stringContaining('chat not found'),
        at: expect.any(String),
      });
      // A permanent refusal marks the delivery FAILED (the worker does not retry it).
      const [delivery] = await app.database.db
        .select()
        .from(alertDeliveries)
        .where(eq(alertDeliveries.eventKey, `order.created:${order}`));
      expect(delivery?.status).toBe('FAILED');

      bot.refuse(403);
      await alert();
      expect((await failing())[admin.user.id].error).toContain('blocked');

      // A new chat id clears the mark at once; an alert that goes through clears it too.
      await put(ops.user.id, '333333333');
      expect((await failing())[ops.user.id]).toBeNull();
      expect((await failing())[admin.user.id]).not.toBeNull();
      bot.refuse(undefined);
      await alert();
      expect(await failing()).toEqual({ [admin.user.id]: null, [ops.user.id]: null });
    } finally {
      await app.close();
      await bot.stop();
    }
  });
});
