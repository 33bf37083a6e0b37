import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';

const redisUrl = process.env.REDIS_URL;

describe.skipIf(!redisUrl)('bull-board with Redis', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ settings: { redisUrl } });
  });
  afterAll(() => t?.close());

  it('serves the dashboard and lists every queue to an ADMIN', async () => {
    const admin = await t.signIn('ADMIN');
    const session = await t.app.inject({
      method: 'POST',
      url: '/api/admin/queues/session',
      headers: admin.headers,
    });
    const value = /mchanga_queues=([^;]+)/.exec(String(session.headers['set-cookie']))![1]!;
    const page = await t.app.inject({ url: '/admin/queues', cookies: { mchanga_queues: value } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('__UI_CONFIG__');
    const api = await t.app.inject({ url: '/admin/queues/api/queues', cookies: { mchanga_queues: value } });
    expect(api.statusCode).toBe(200);
    const names = (api.json().queues as Array<{ name: string }>).map((q) => q.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'mchanga-system.heartbeat',
        'mchanga-alert.fanout',
        'mchanga-telemetry.ingest',
        'mchanga-article.morning',
      ]),
    );
    expect((await t.app.inject({ url: '/admin/queues/api/queues' })).statusCode).toBe(401);
  });

  it('takes changes only from its own pages, and only retry, promote and clean (issue 22, item 11)', async () => {
    const admin = await t.signIn('ADMIN');
    const session = await t.call('POST', '/api/admin/queues/session', admin);
    const cookie = /mchanga_queues=([^;]+)/.exec(String(session.headers['set-cookie']))![1]!;
    const own = { origin: 'http://localhost:80' };
    const change = (
      method: 'PUT' | 'POST',
      path: string,
      headers: Record<string, string>,
      payload?: object,
    ) =>
      t.app.inject({
        method,
        url: `/admin/queues/api/queues/${path}`,
        cookies: { mchanga_queues: cookie },
        headers,
        ...(payload ? { payload } : {}),
      });
    const q = 'mchanga-system.heartbeat';
    // Another origin (another port of the same host is the same site: the SameSite cookie goes along).
    for (const headers of [
      { origin: 'http://localhost:8081' } as Record<string, string>,
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'same-site' },
      {},
    ]) {
      const paused = await change('PUT', `${q}/pause`, headers);
      expect(paused.statusCode, JSON.stringify(headers)).toBe(403);
      expect(paused.json().error).toMatch(/own pages/);
      expect((await change('PUT', `${q}/clean/completed`, headers)).statusCode).toBe(403);
    }
    // Its own pages: retry, promote and clean, nothing else.
    expect((await change('PUT', `${q}/clean/completed`, own)).statusCode).toBe(200);
    expect((await change('PUT', `${q}/promote`, { 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expect((await change('PUT', `${q}/retry/failed`, own)).statusCode).toBe(200);
    for (const [method, path] of [
      ['POST', `${q}/add`],
      ['PUT', `${q}/pause`],
      ['PUT', 'pause'],
      ['PUT', `${q}/empty`],
      ['PUT', `${q}/obliterate`],
    ] as const) {
      const refused = await change(method, path, own, { name: 'anything', data: {} });
      expect(refused.statusCode, path).toBe(403);
      expect(refused.json().error).toMatch(/retrying, promoting and cleaning/);
    }
    // Reading stays open to the ADMIN.
    expect(
      (await t.app.inject({ url: '/admin/queues/api/queues', cookies: { mchanga_queues: cookie } }))
        .statusCode,
    ).toBe(200);
  });
});
