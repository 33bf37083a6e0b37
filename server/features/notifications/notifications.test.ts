import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    const list = await t.app.inject({ url: '/api/admin/notification-targets', headers: admin.headers });
    expect(list.statusCode).toBe(200);
    expect(list.json().botConfigured).toBe(false);
    expect(
      list
        .json()
        .recipients.map((r: { role: string }) => r.role)
        .sort(),
    ).toEqual(['ADMIN', 'OPS']);

    const put = (id: number, telegramChatId: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/notification-targets/${id}`,
        headers: admin.headers,
        payload: { telegramChatId },
      });
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
    expect(
      (await t.app.inject({ url: '/api/admin/notification-targets', headers: ops.headers })).statusCode,
    ).toBe(403);
  });
});
