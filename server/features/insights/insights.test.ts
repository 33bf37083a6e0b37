import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailySummaries } from '../../../drizzle/schema';
import { makeAssignment, makeDriver, makeOrder, makeTruck } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
let now: Date;
beforeAll(async () => {
  t = await createTestApp({ now: () => now });
});
afterAll(() => t.close());

describe('AI insights and the morning briefing', () => {
  it('computes insights from the data on refresh, with alerts to review', async () => {
    now = new Date('2026-12-14T05:00:00Z'); // 08:00 in Nairobi
    const admin = await t.signIn('ADMIN');
    const get = () => t.call('GET', '/api/admin/ai/insights', admin);
    await makeOrder(t.database.db, {
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
    expect((await t.call('POST', '/api/admin/ai/insights/refresh', admin)).json()).toEqual({ queued: true });
    expect((await t.call('GET', '/api/admin/ai/insights', await t.signIn('OPS'))).statusCode).toBe(403);
  });

  it('writes one public article and one staff summary a day from yesterday, however often it runs', async () => {
    now = new Date('2026-11-23T05:00:00Z'); // 08:00 in Nairobi
    const admin = await t.signIn('ADMIN');
    const driver = await makeDriver(t.database.db, { name: 'Mwangi Kamau' });
    const truck = await makeTruck(t.database.db);
    const order = await makeOrder(t.database.db, {
      site: 'Kamakis',
      perTruckCents: 3_300_000,
      distanceKm: 16,
      status: 'DELIVERED',
    });
    await makeAssignment(t.database.db, {
      orderId: order.id,
      truckId: truck.id,
      driverId: driver.id,
      status: 'DELIVERED',
      deliveredAt: new Date('2026-11-22T08:00:00Z'),
    });
    for (let i = 0; i < 2; i++) {
      expect((await t.call('POST', '/api/admin/articles/run', admin)).statusCode).toBe(200);
      await t.jobs.drain();
    }
    const list = (await t.call('GET', '/api/articles?limit=3')).json();
    expect(list).toHaveLength(1);
    expect(list[0].topic).not.toBe('Operations insight');
    expect(JSON.stringify(list[0])).not.toMatch(/Mwangi Kamau|Kamakis|33,000 delivered/);
    const summary = (await t.call('GET', '/api/admin/ai/insights', admin)).json().dailySummary;
    expect(summary.date).toBe('2026-11-22');
    expect(summary.text).toMatch(/^Sunday, 22 November: 1 load, KES 33,000 delivered\./);
    expect(summary.text).toContain('Mwangi Kamau led the drivers with 1 load.');
    expect(summary.text).toContain('The busiest destination was Kamakis.');
    const summaries = await t.database.db.select().from(dailySummaries);
    expect(summaries.filter((s) => s.forDate === '2026-11-22')).toHaveLength(1);
  });
});
