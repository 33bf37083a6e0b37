import { randomUUID } from 'node:crypto';
import { asc, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuelLogs, idempotencyKeys } from '../../drizzle/schema';
import { makeTruck } from '../../test/factories';
import { createTestApp, type TestApp, testSettings } from '../../test/helpers';
import { expireIdempotencyKeys } from './expire';

const DAY = 24 * 3600_000;
let t: TestApp;
/** The app's and the job runner's clock; tests move it forward past a key's creation. */
let clock = new Date();

beforeAll(async () => {
  t = await createTestApp({ now: () => clock });
});
afterAll(() => t.close());

async function storedKey(key: string) {
  const [row] = await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
  return row;
}

describe('idempotency.expire', () => {
  it('deletes only keys older than the retention, in batches, and a re-run deletes nothing', async () => {
    const user = await t.signIn('OPS');
    const now = new Date('2026-11-23T00:30:00Z');
    const ages = {
      'old-a': 7 * DAY + 1,
      'old-b': 7 * DAY + 60_000,
      'old-c': 8 * DAY,
      'old-d': 30 * DAY,
      'old-e': 400 * DAY,
      'young-edge': 7 * DAY,
      'young-a': 7 * DAY - 60_000,
      'young-b': 3600_000,
    };
    await t.database.db.insert(idempotencyKeys).values(
      Object.entries(ages).map(([key, ageMs]) => ({
        key: `${key}-${user.user.id}`,
        userId: user.user.id,
        route: 'fuel.create',
        requestHash: 'h',
        responseStatus: 201,
        responseBody: { id: key },
        createdAt: new Date(now.getTime() - ageMs),
      })),
    );
    const ctx = {
      db: t.database.db,
      now: () => now,
      settings: testSettings({ idempotencyRetentionDays: 7 }),
    };

    // A batch of 2 needs three statements for the five expired keys.
    const first = await expireIdempotencyKeys(ctx, 2);
    expect(first).toEqual({ deleted: 5, before: '2026-11-16T00:30:00.000Z' });
    const left = await t.database.db
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.userId, user.user.id))
      .orderBy(asc(idempotencyKeys.key));
    expect(left.map((r) => r.key)).toEqual(
      ['young-a', 'young-b', 'young-edge'].map((k) => `${k}-${user.user.id}`),
    );
    expect(await expireIdempotencyKeys(ctx, 2)).toMatchObject({ deleted: 0 });
  });

  it('runs on the in-process runner: a replay within the retention answers the first result', async () => {
    const fuel = await t.signIn('FUEL');
    const truck = await makeTruck(t.database.db);
    const body = { truckId: truck.id, litres: 60, odometer: 4321, cost: 11000, note: 'Total Thika' };
    const headers = { 'idempotency-key': randomUUID() };
    clock = new Date();
    const first = await t.call('POST', '/api/fuel/logs', fuel, body, headers);
    expect(first.statusCode).toBe(201);
    const createdAt = (await storedKey(headers['idempotency-key']))!.createdAt;

    const runExpiry = async (at: Date) => {
      clock = at;
      const { id } = await t.jobs.enqueue('idempotency.expire', {});
      await t.jobs.drain();
      expect(t.jobs.stateOf(id)).toBe('completed');
    };
    const retention = t.deps.settings.idempotencyRetentionDays * DAY;

    await runExpiry(new Date(createdAt.getTime() + retention - 60_000));
    expect(await storedKey(headers['idempotency-key'])).toBeDefined();
    const replay = await t.call('POST', '/api/fuel/logs', fuel, body, headers);
    expect(replay.statusCode).toBe(201);
    expect(replay.json()).toEqual(first.json());
    const rows = async () =>
      (await t.database.db.select({ n: count() }).from(fuelLogs).where(eq(fuelLogs.truckId, truck.id)))[0]!.n;
    expect(await rows()).toBe(1);

    // Past the retention the key is gone: the same entry is judged afresh (here, a suspected duplicate).
    await runExpiry(new Date(createdAt.getTime() + retention + 60_000));
    expect(await storedKey(headers['idempotency-key'])).toBeUndefined();
    const late = await t.call('POST', '/api/fuel/logs', fuel, body, headers);
    expect(late.statusCode).toBe(409);
    expect(await rows()).toBe(1);
  });
});
