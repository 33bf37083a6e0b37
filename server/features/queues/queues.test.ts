import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('queue dashboard access', () => {
  it('lets only an ADMIN open /admin/queues, through a short-lived HttpOnly cookie', async () => {
    expect((await t.app.inject({ url: '/admin/queues' })).statusCode).toBe(401);
    const ops = await t.signIn('OPS');
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/admin/queues/session', headers: ops.headers }))
        .statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/queues/session' })).statusCode).toBe(401);

    const admin = await t.signIn('ADMIN');
    const session = await t.app.inject({
      method: 'POST',
      url: '/api/admin/queues/session',
      headers: admin.headers,
    });
    expect(session.statusCode).toBe(200);
    const cookie = String(session.headers['set-cookie']);
    expect(cookie).toMatch(/mchanga_queues=.+; Max-Age=900; Path=\/admin\/queues; HttpOnly; SameSite=Strict/);
    const value = /mchanga_queues=([^;]+)/.exec(cookie)![1]!;
    const page = await t.app.inject({ url: '/admin/queues', cookies: { mchanga_queues: value } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/embedded mode/);
    // A bearer token is no dashboard cookie.
    expect(
      (await t.app.inject({ url: '/admin/queues', cookies: { mchanga_queues: admin.token } })).statusCode,
    ).toBe(401);
    // Logging out everywhere revokes the dashboard cookie too.
    await t.app.inject({ method: 'POST', url: '/api/auth/logout-all', headers: admin.headers, payload: {} });
    expect(
      (await t.app.inject({ url: '/admin/queues', cookies: { mchanga_queues: value } })).statusCode,
    ).toBe(401);
  });
});
