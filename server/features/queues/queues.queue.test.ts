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
});
