import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows as sqlRows } from '../../../drizzle/db';
import { assignments, costs } from '../../../drizzle/schema';
import { makeAssignment, makeCost, makeDriver, makeOrder, makeTruck } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
const now = new Date('2026-11-20T09:00:00Z'); // Friday 12:00 in Nairobi

beforeAll(async () => {
  t = await createTestApp({ now: () => now });
});
afterAll(() => t.close());

describe('finance', () => {
  it('answers summary, timeseries and per-truck breakdown over Nairobi days; the rollup equals a recomputation', async () => {
    const db = t.database.db;
    const admin = await t.signIn('ADMIN');
    const driver = await makeDriver(db);
    const m1 = await makeTruck(db, { primaryDriverId: driver.id });
    const m2 = await makeTruck(db);
    // A fuel stop two days earlier, on 18 November in Nairobi.
    await makeCost(db, {
      truckId: m1.id,
      type: 'FUEL',
      source: 'FUEL',
      amountCents: 1_400_000,
      incurredAt: new Date(now.getTime() - 48 * 3600_000),
    });
    const order = await makeOrder(db, { trucks: 2, status: 'RECEIVED', createdAt: now });
    const delivered = { driverId: driver.id, status: 'DELIVERED' as const, deliveredAt: now };
    await makeAssignment(db, { orderId: order.id, truckId: m1.id, ...delivered });
    const a2 = await makeAssignment(db, { orderId: order.id, truckId: m2.id, tonnes: 10, ...delivered });

    const summary = (
      await t.call('GET', '/api/admin/finance/summary?from=2026-11-20&to=2026-11-20', admin)
    ).json();
    expect(summary.revenue).toBe(32000 + 16000);
    expect(summary.orders).toBe(1);
    const series = (
      await t.call('GET', '/api/admin/finance/timeseries?from=2026-11-18&to=2026-11-20', admin)
    ).json();
    expect(series.map((p: { date: string }) => p.date)).toEqual(['2026-11-18', '2026-11-19', '2026-11-20']);
    expect(series[2].revenue).toBe(48000);
    expect(series[0]).toMatchObject({ revenue: 0, cost: 14000 });
    const rows = (
      await t.call('GET', '/api/admin/finance/truck-breakdown?from=2026-11-20&to=2026-11-20', admin)
    ).json();
    const row1 = rows.find((r: { truckId: string }) => r.truckId === m1.id);
    expect(row1).toMatchObject({ plate: m1.plate, loads: 1, revenue: 32000 });
    expect(row1.gross).toBeCloseTo(row1.revenue - row1.cost, 2);
    expect(row1.margin).toBe(Math.round((row1.gross / row1.revenue) * 1000) / 10);
    expect(
      (await t.call('GET', '/api/admin/finance/summary?from=2026-11-21&to=2026-11-20', admin)).statusCode,
    ).toBe(400);

    // Mix in edits, voids and a re-weighed load, then compare the rollup with a recomputation from raw rows.
    const c = await makeCost(db, {
      truckId: m2.id,
      type: 'SALARY',
      amountCents: 80_000,
      description: 'Turn boy',
      incurredAt: now,
    });
    await db
      .update(costs)
      .set({ truckId: m1.id, amountCents: 90_000, incurredAt: new Date('2026-11-19T05:00:00Z') })
      .where(eq(costs.id, c.id));
    await db.update(assignments).set({ tonnes: 12 }).where(eq(assignments.id, a2.id));
    await db.execute(sql`update costs set voided_at = now() where id = ${c.id}`);
    const snapshot = async () =>
      (
        await sqlRows<Record<string, unknown>>(
          db,
          sql`
        select day::text as day, truck_id, loads, orders, revenue_cents::float8 as r, cost_cents::float8 as c from finance_daily
        where loads <> 0 or orders <> 0 or revenue_cents <> 0 or cost_cents <> 0 order by 1, 2`,
        )
      ).map((r) => JSON.stringify(r));
    const maintained = await snapshot();
    await db.execute(sql`select finance_rebuild()`);
    expect(await snapshot()).toEqual(maintained);
  });

  it('lists costs by type over the range, leaving voided ones out', async () => {
    const db = t.database.db;
    const admin = await t.signIn('ADMIN');
    const truck = await makeTruck(db);
    const at = new Date('2026-10-05T09:00:00Z');
    await makeCost(db, { truckId: truck.id, type: 'REPAIR', amountCents: 700_000, incurredAt: at });
    await makeCost(db, { truckId: truck.id, type: 'LOADING', amountCents: 150_050, incurredAt: at });
    await makeCost(db, {
      truckId: truck.id,
      type: 'REPAIR',
      amountCents: 99_900,
      incurredAt: at,
      voidedAt: at,
    });
    const mix = await t.call('GET', '/api/admin/finance/cost-mix?from=2026-10-05&to=2026-10-05', admin);
    expect(mix.json()).toEqual([
      { type: 'REPAIR', amount: 7000 },
      { type: 'LOADING', amount: 1500.5 },
    ]);
  });

  it('is for ADMIN only', async () => {
    expect((await t.call('GET', '/api/admin/finance/summary', await t.signIn('OPS'))).statusCode).toBe(403);
  });
});
