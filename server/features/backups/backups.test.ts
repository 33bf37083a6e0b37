import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupRuns } from '../../../drizzle/schema';
import { createTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ settings: { backup: { cron: '30 2 * * *', keep: 7, dir: '/tmp/unused' } } });
});
afterAll(() => t.close());

describe('GET /api/admin/backups (issue 25)', () => {
  it('answers ADMIN only', async () => {
    expect((await t.call('GET', '/api/admin/backups')).statusCode).toBe(401);
    for (const role of ['OPS', 'DRIVER', 'FUEL', 'CUSTOMER'] as const) {
      const res = await t.call('GET', '/api/admin/backups', await t.signIn(role));
      expect(res.statusCode, role).toBe(403);
      expect(res.json()).toHaveProperty('error');
    }
  });

  it("shows the last backup's time and size, the schedule and the newest runs first", async () => {
    const admin = await t.signIn('ADMIN');
    expect((await t.call('GET', '/api/admin/backups', admin)).json()).toEqual({
      lastAt: null,
      sizeBytes: null,
      schedule: '30 2 * * *',
      keep: 7,
      runs: [],
    });
    const okAt = new Date('2026-11-25T23:31:00Z');
    await t.database.db.insert(backupRuns).values([
      {
        status: 'ok',
        startedAt: new Date('2026-11-25T23:30:00Z'),
        finishedAt: okAt,
        file: 'mchanga-20261125T233000Z.tar.gz',
        sizeBytes: 4_954_112,
      },
      {
        status: 'failed',
        startedAt: new Date('2026-11-26T23:30:00Z'),
        finishedAt: new Date('2026-11-26T23:30:05Z'),
        error: 'ENOSPC: no space left on device',
      },
    ]);
    const body = (await t.call('GET', '/api/admin/backups', admin)).json();
    expect(body).toMatchObject({ lastAt: okAt.toISOString(), sizeBytes: 4_954_112 });
    expect(body.runs.map((r: { status: string }) => r.status)).toEqual(['failed', 'ok']);
    expect(body.runs[0].error).toBe('ENOSPC: no space left on device');
  });
});
