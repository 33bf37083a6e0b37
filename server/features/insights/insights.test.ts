import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignments, drivers, orders, trucks } from '../../../drizzle/schema';
import { createTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
const now = new Date('2026-11-23T05:00:00Z'); // 08:00 in Nairobi
beforeAll(async () => {
  t = await createTestApp({ now: () => now });
});
afterAll(() => t.close());

describe('AI insights and the morning briefing', () => {
  it('computes insights from the data on refresh, with alerts to review', async () => {
    const admin = await t.signIn('ADMIN');
    const get = () => t.app.inject({ url: '/api/admin/ai/insights', headers: admin.headers });
    await t.database.db.insert(orders).values({
      name: 'C',
      site: 'Ruiru',
      sandType: 'coarse',
      trucks: 1,
      perTruckCents: 3_200_000,
      totalCents: 3_200_000,
      distanceKm: 10,
      distanceSource: 'manual',
      status: 'PAYMENT_REVIEW',
      paymentStatus: 'SUBMITTED',
      updatedAt: new Date(now.getTime() - 5 * 3600_000),
    });
    const first = await get();
    expect(first.statusCode).toBe(200);
    await t.jobs.drain();
    const after = (await get()).json();
    expect(after.generator).toBe('rules');
    expect(after.alerts).toContain('1 payment confirmation waits for review, the oldest waiting 5 h.');
    expect(after.insights).toMatch(/No loads were delivered in the last 7 days/);
    expect(
      (
        await t.app.inject({ method: 'POST', url: '/api/admin/ai/insights/refresh', headers: admin.headers })
      ).json(),
    ).toEqual({ queued: true });
    expect(
      (await t.app.inject({ url: '/api/admin/ai/insights', headers: (await t.signIn('OPS')).headers }))
        .statusCode,
    ).toBe(403);
  });

  it('writes one briefing a day from yesterday, shown by GET /api/articles, however often it runs', async () => {
    const admin = await t.signIn('ADMIN');
    await t.database.db.insert(drivers).values({ id: 'D-B', name: 'Mwangi Kamau' });
    await t.database.db.insert(trucks).values({ id: 'T-B', plate: 'KBB 1' });
    const [o] = await t.database.db
      .insert(orders)
      .values({
        name: 'C',
        site: 'Kamakis',
        sandType: 'coarse',
        trucks: 1,
        perTruckCents: 3_300_000,
        totalCents: 3_300_000,
        distanceKm: 16,
        distanceSource: 'manual',
        status: 'DELIVERED',
      })
      .returning();
    await t.database.db.insert(assignments).values({
      orderId: o!.id,
      truckId: 'T-B',
      driverId: 'D-B',
      status: 'DELIVERED',
      deliveredAt: new Date('2026-11-22T08:00:00Z'),
    });
    for (let i = 0; i < 2; i++) {
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/admin/articles/run', headers: admin.headers }))
          .statusCode,
      ).toBe(200);
      await t.jobs.drain();
    }
    const list = (await t.app.inject({ url: '/api/articles?limit=3' })).json();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      title: 'Sunday, 22 November: 1 load, KES 33,000 delivered',
      topic: 'Operations insight',
    });
    expect(list[0].body).toContain('Mwangi Kamau led the drivers with 1 load.');
    expect(list[0].body).toContain('The busiest destination was Kamakis.');
  });
});
