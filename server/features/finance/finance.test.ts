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

  it('answers ranges across months (finance_day_total, finance_monthly) exactly as sums over the raw rows', async () => {
    const db = t.database.db;
    const admin = await t.signIn('ADMIN');
    const driver = await makeDriver(db);
    const [m1, m2] = [await makeTruck(db), await makeTruck(db)];
    // Loads and costs on month ends and starts in Nairobi (21:00 UTC is midnight there), over a year.
    const at = (iso: string) => new Date(iso);
    for (const [i, when] of [
      '2025-11-21T06:00:00Z',
      '2025-11-30T20:59:00Z',
      '2025-11-30T21:00:00Z',
      '2026-02-28T12:00:00Z',
      '2026-03-31T21:30:00Z',
      '2026-07-15T09:00:00Z',
      '2026-10-31T20:00:00Z',
      '2026-11-01T08:00:00Z',
    ].entries()) {
      const order = await makeOrder(db, {
        status: 'RECEIVED',
        perTruckCents: 3_100_050 + i * 10_000,
        createdAt: at(when),
      });
      await makeAssignment(db, {
        orderId: order.id,
        truckId: i % 2 ? m1.id : m2.id,
        driverId: driver.id,
        tonnes: 13.5 + i,
        status: 'DELIVERED',
        deliveredAt: at(when),
      });
      await makeCost(db, {
        truckId: i % 3 ? m1.id : null,
        type: 'REPAIR',
        amountCents: 70_005 * (i + 1),
        incurredAt: at(when),
      });
    }
    const voided = await makeCost(db, {
      truckId: m2.id,
      type: 'FUEL',
      amountCents: 990_000,
      incurredAt: at('2026-05-01T05:00:00Z'),
    });
    await db.update(costs).set({ voidedAt: now }).where(eq(costs.id, voided.id));

    const raw = (from: string, to: string) =>
      sqlRows<{ truck_id: string; loads: number; revenue: number; cost: number; orders: number }>(
        db,
        sql`
        select k as truck_id, sum(n)::int as loads, sum(r)::float8 as revenue, sum(c)::float8 as cost, sum(o)::int as orders
        from (select a.truck_id as k, 1 as n, round(o.per_truck_cents * a.tonnes / 20) as r, 0 as c, 0 as o,
                     (a.delivered_at at time zone 'Africa/Nairobi')::date as day
              from assignments a join orders o on o.id = a.order_id where a.status = 'DELIVERED'
              union all
              select coalesce(truck_id, ''), 0, 0, amount_cents, 0, (incurred_at at time zone 'Africa/Nairobi')::date
              from costs where voided_at is null
              union all
              select '', 0, 0, 0, 1, (created_at at time zone 'Africa/Nairobi')::date from orders where status <> 'CANCELLED') x
        where day between ${from}::date and ${to}::date
        group by rollup (k)`,
      );
    for (const [from, to] of [
      ['2025-11-21', '2026-11-20'], // 365 days: days, whole months, days
      ['2025-12-01', '2026-02-28'], // whole months only
      ['2026-02-28', '2026-04-01'],
      ['2026-07-02', '2026-07-30'], // inside one month
    ] as const) {
      const sums = await raw(from, to);
      const all = sums.find((r) => r.truck_id === null)!;
      const trucks = sums.filter((r) => r.truck_id && (r.revenue || r.cost));
      const q = `from=${from}&to=${to}`;
      const summary = (await t.call('GET', `/api/admin/finance/summary?${q}`, admin)).json();
      expect(summary, q).toMatchObject({
        revenue: all.revenue / 100,
        costTotal: all.cost / 100,
        orders: all.orders,
      });
      const series = (await t.call('GET', `/api/admin/finance/timeseries?${q}`, admin)).json() as Array<{
        revenue: number;
        cost: number;
      }>;
      const cents = (key: 'revenue' | 'cost') => Math.round(series.reduce((n, p) => n + p[key] * 100, 0));
      expect([cents('revenue'), cents('cost')], q).toEqual([all.revenue, all.cost]);
      const breakdown = (
        await t.call('GET', `/api/admin/finance/truck-breakdown?${q}`, admin)
      ).json() as Array<{
        truckId: string;
        loads: number;
        revenue: number;
        cost: number;
      }>;
      expect(breakdown.map((r) => [r.truckId, r.loads, r.revenue, r.cost]).sort(), q).toEqual(
        trucks.map((r) => [r.truck_id, r.loads, r.revenue / 100, r.cost / 100]).sort(),
      );
      expect(breakdown.length, q).toBeGreaterThan(0);
    }
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
