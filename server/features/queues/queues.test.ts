import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const COOKIE = /mchanga_queues=.+; Max-Age=900; Path=\/admin\/queues; HttpOnly; SameSite=Strict/;
const cookieValue = (setCookie: unknown) => /mchanga_queues=([^;]+)/.exec(String(setCookie))![1]!;

describe('admin.queues.session', () => {
  it('sets the dashboard cookie over REST and answers where the dashboard is', async () => {
    const admin = await t.signIn('ADMIN');
    const res = await t.call('POST', '/api/admin/queues/session', admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ url: '/admin/queues', expiresInSeconds: 900 });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(COOKIE);
    expect(cookie).not.toMatch(/Secure/);
    const page = await t.app.inject({
      url: '/admin/queues',
      cookies: { mchanga_queues: cookieValue(cookie) },
    });
    expect(page.statusCode).toBe(200);
  });

  it('sets the same cookie over tRPC', async () => {
    const admin = await t.signIn('ADMIN');
    const res = await t.call('POST', '/trpc/admin.queues.session', admin, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data).toEqual({ url: '/admin/queues', expiresInSeconds: 900 });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(COOKIE);
    const page = await t.app.inject({
      url: '/admin/queues',
      cookies: { mchanga_queues: cookieValue(cookie) },
    });
    expect(page.statusCode).toBe(200);
  });

  it('marks the cookie Secure when the request came over https', async () => {
    const behindProxy = await createTestApp({ settings: { trustProxy: 1 } });
    try {
      const own = await behindProxy.signIn('ADMIN');
      const secure = await behindProxy.call('POST', '/api/admin/queues/session', own, undefined, {
        'x-forwarded-proto': 'https',
      });
      expect(secure.statusCode).toBe(200);
      expect(String(secure.headers['set-cookie'])).toMatch(/; Secure/);
    } finally {
      await behindProxy.close();
    }
  });

  it('refuses every role but ADMIN with 403 and anonymous callers with 401, over REST and tRPC, setting no cookie', async () => {
    for (const role of ['OPS', 'FUEL', 'DRIVER', 'CUSTOMER'] as const) {
      const who = await t.signIn(role);
      for (const url of ['/api/admin/queues/session', '/trpc/admin.queues.session']) {
        const res = await t.call('POST', url, who, {});
        expect(res.statusCode, `${role} ${url}`).toBe(403);
        expect(res.headers['set-cookie'], `${role} ${url}`).toBeUndefined();
      }
    }
    for (const url of ['/api/admin/queues/session', '/trpc/admin.queues.session']) {
      const res = await t.call('POST', url, null, {});
      expect(res.statusCode, url).toBe(401);
      expect(res.headers['set-cookie'], url).toBeUndefined();
    }
  });
});

describe('queue dashboard access', () => {
  it('lets only an ADMIN open /admin/queues, through a short-lived HttpOnly cookie', async () => {
    expect((await t.app.inject({ url: '/admin/queues' })).statusCode).toBe(401);
    const ops = await t.signIn('OPS');
    expect((await t.call('POST', '/api/admin/queues/session', ops)).statusCode).toBe(403);
    expect((await t.call('POST', '/api/admin/queues/session')).statusCode).toBe(401);

    const admin = await t.signIn('ADMIN');
    const session = await t.call('POST', '/api/admin/queues/session', admin);
    expect(session.statusCode).toBe(200);
    const cookie = String(session.headers['set-cookie']);
    expect(cookie).toMatch(COOKIE);
    const value = cookieValue(cookie);
    const page = await t.app.inject({ url: '/admin/queues', cookies: { mchanga_queues: value } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/embedded mode/);
    // A bearer token is no dashboard cookie.
    expect(
      (await t.app.inject({ url: '/admin/queues', cookies: { mchanga_queues: admin.token } })).statusCode,
    ).toBe(401);
    // Logging out everywhere revokes the dashboard cookie too.
    await t.call('POST', '/api/auth/logout-all', admin, {});
    expect(
      (await t.app.inject({ url: '/admin/queues', cookies: { mchanga_queues: value } })).statusCode,
    ).toBe(401);
  });
});
