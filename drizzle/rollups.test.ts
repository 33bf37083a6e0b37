import { eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAssignment, makeCost, makeDriver, makeOrder, makeStock, makeTruck } from '../test/factories';
import { createTestApp, type TestApp } from '../test/helpers';
import { rows } from './db';
import { assignments, costs, drivers, orders, stockTransactions } from './schema';

// Every rollup the dashboards and finance read is kept by triggers in the transaction of the rows it sums.
// After a mixed run of writes (through the app and straight in SQL) each must equal a recomputation from
// the raw rows, and its *_rebuild() must leave it as it was.
let t: TestApp;
const now = new Date('2026-11-26T09:00:00Z'); // Thursday 12:00 in Nairobi

beforeAll(async () => {
  t = await createTestApp({ now: () => now });
});
afterAll(() => t.close());

// What finance_daily and its coarser sums add up: every delivered load, non-voided cost and order, per day.
const FINANCE_RAW = sql`
  select (a.delivered_at at time zone 'Africa/Nairobi')::date as day, a.truck_id as k, 1 as n, 0 as o,
         round(o.per_truck_cents * a.tonnes / 20) as r, 0 as c
  from assignments a join orders o on o.id = a.order_id
  where a.status = 'DELIVERED' and a.delivered_at is not null
  union all
  select (incurred_at at time zone 'Africa/Nairobi')::date, coalesce(truck_id, ''), 0, 0, 0, amount_cents
  from costs where voided_at is null
  union all
  select (created_at at time zone 'Africa/Nairobi')::date, '', 0, 1, 0, 0
  from orders where status <> 'CANCELLED'`;

// Every column of a trip's row, as text (trip_facts_source is the rule: each delivered load recomputed).
const TRIP_COLUMNS = sql.raw(
  [
    'assignment_id',
    'order_id',
    'truck_id',
    'driver_id',
    'site',
    'delivered_at',
    'planned_at',
    'revenue_cents',
    'distance_km',
    'yard_exit_at',
    'site_entry_at',
    'site_exit_at',
    'yard_entry_at',
    'prev_yard_entry_at',
    'linked_cents',
    'gps_km',
  ]
    .map((c) => `${c}::text as ${c}`)
    .join(', '),
);

/** Each rollup's non-zero rows, and the same sums recomputed here from the raw rows. */
const ROLLUPS: Record<string, { kept: SQL; raw: SQL; rebuild: string }> = {
  finance_daily: {
    rebuild: 'finance_rebuild',
    kept: sql`select day::text as day, truck_id as k, loads::int as n, orders::int as o,
                     revenue_cents::text as r, cost_cents::text as c
              from finance_daily where loads <> 0 or orders <> 0 or revenue_cents <> 0 or cost_cents <> 0`,
    raw: sql`select day::text as day, k, sum(n)::int as n, sum(o)::int as o, sum(r)::text as r, sum(c)::text as c
             from (${FINANCE_RAW}) x group by day, k`,
  },
  finance_day_total: {
    rebuild: 'finance_rebuild',
    kept: sql`select day::text as day, loads::int as n, orders::int as o, revenue_cents::text as r, cost_cents::text as c
              from finance_day_total where loads <> 0 or orders <> 0 or revenue_cents <> 0 or cost_cents <> 0`,
    raw: sql`select day::text as day, sum(n)::int as n, sum(o)::int as o, sum(r)::text as r, sum(c)::text as c
             from (${FINANCE_RAW}) x group by day
             having sum(n) <> 0 or sum(o) <> 0 or sum(r) <> 0 or sum(c) <> 0`,
  },
  finance_monthly: {
    rebuild: 'finance_rebuild',
    kept: sql`select month::text as m, truck_id as k, loads::int as n, orders::int as o, revenue_cents::text as r,
                     cost_cents::text as c
              from finance_monthly where loads <> 0 or orders <> 0 or revenue_cents <> 0 or cost_cents <> 0`,
    raw: sql`select date_trunc('month', day)::date::text as m, k, sum(n)::int as n, sum(o)::int as o, sum(r)::text as r,
                    sum(c)::text as c
             from (${FINANCE_RAW}) x group by 1, 2
             having sum(n) <> 0 or sum(o) <> 0 or sum(r) <> 0 or sum(c) <> 0`,
  },
  driver_daily: {
    rebuild: 'driver_daily_rebuild',
    kept: sql`select day::text as day, driver_id as k, loads::int as n, tonnes::text as w, revenue_cents::text as r
              from driver_daily where loads <> 0 or tonnes <> 0 or revenue_cents <> 0`,
    raw: sql`select (a.delivered_at at time zone 'Africa/Nairobi')::date::text as day, a.driver_id as k,
                    count(*)::int as n, sum(a.tonnes)::text as w, sum(round(o.per_truck_cents * a.tonnes / 20))::text as r
             from assignments a join orders o on o.id = a.order_id
             where a.status = 'DELIVERED' and a.delivered_at is not null and a.driver_id is not null
             group by 1, 2`,
  },
  cost_type_daily: {
    rebuild: 'cost_type_daily_rebuild',
    kept: sql`select day::text as day, type as k, cost_cents::text as c from cost_type_daily where cost_cents <> 0`,
    raw: sql`select (incurred_at at time zone 'Africa/Nairobi')::date::text as day, type as k, sum(amount_cents)::text as c
             from costs where voided_at is null group by 1, 2`,
  },
  trip_facts: {
    rebuild: 'trip_facts_rebuild',
    kept: sql`select ${TRIP_COLUMNS} from trip_facts`,
    raw: sql`select ${TRIP_COLUMNS} from trip_facts_source`,
  },
  yard_stock_balance: {
    rebuild: 'yard_stock_rebuild',
    kept: sql`select category as k, tonnes::text as w from yard_stock_balance where tonnes <> 0`,
    raw: sql`select category as k, sum(tonnes)::text as w from stock_transactions group by 1 having sum(tonnes) <> 0`,
  },
};

async function snapshot(query: SQL): Promise<string[]> {
  return (await rows<Record<string, unknown>>(t.database.db, query)).map((r) => JSON.stringify(r)).sort();
}

describe('rollups kept by triggers', () => {
  it('equal a recomputation from the raw rows after deliveries, un-deliveries, cancellations, edits, voids and deletes', async () => {
    const db = t.database.db;
    const ops = await t.signIn('OPS');
    const [d1, d2, d3] = [await makeDriver(db), await makeDriver(db), await makeDriver(db)];
    const [m1, m2] = [await makeTruck(db), await makeTruck(db)];
    const coarse = await makeOrder(db, { trucks: 4, perTruckCents: 3_100_050, status: 'RECEIVED' });
    const smooth = await makeOrder(db, { trucks: 2, sandType: 'smooth', status: 'RECEIVED' });
    const doomed = await makeOrder(db, { trucks: 2, status: 'RECEIVED' });
    const load = (orderId: number, truckId: string, driverId: string, over = {}) =>
      makeAssignment(db, { orderId, truckId, driverId, ...over });
    const move = (id: number, status: string) =>
      t
        .call('PATCH', `/api/admin/assignments/${id}`, ops, {
          status,
          ...(status === 'DELIVERED' ? { reason: 'Delivery note signed on paper' } : {}),
        })
        .then((r) => {
          expect(r.statusCode, r.body).toBe(200);
        });

    // Deliveries through the app (each takes its stock out of the yard) and a yard receipt.
    const a1 = await load(coarse.id, m1.id, d1.id, { tonnes: 13 });
    const a2 = await load(smooth.id, m2.id, d2.id, { tonnes: 19.5 });
    await move(a1.id, 'DELIVERED');
    await move(a2.id, 'IN_TRANSIT');
    await move(a2.id, 'DELIVERED');
    const receipt = await t.call('POST', '/api/admin/stock/receipt', ops, {
      truckId: m1.id,
      trucks: 3,
      category: 'coarse',
      costPerTonne: 450,
    });
    expect(receipt.statusCode).toBe(201);

    // A load delivered at 01:30 in Nairobi (the next day there), then un-delivered, re-delivered,
    // re-weighed and handed to another truck and driver.
    const late = await load(coarse.id, m2.id, d2.id, {
      status: 'DELIVERED',
      deliveredAt: new Date('2026-11-24T22:30:00Z'),
    });
    await db.update(assignments).set({ status: 'IN_TRANSIT' }).where(eq(assignments.id, late.id));
    await db
      .update(assignments)
      .set({ status: 'DELIVERED', deliveredAt: new Date('2026-11-25T06:00:00Z') })
      .where(eq(assignments.id, late.id));
    await db
      .update(assignments)
      .set({ tonnes: 18.25, truckId: m1.id, driverId: d3.id })
      .where(eq(assignments.id, late.id));

    // A cancelled load and a cancelled order; a load moved to another order.
    const cancelled = await load(coarse.id, m1.id, d1.id, {
      status: 'DELIVERED',
      deliveredAt: new Date('2026-11-23T08:00:00Z'),
    });
    await db.update(assignments).set({ status: 'CANCELLED' }).where(eq(assignments.id, cancelled.id));
    await db.update(orders).set({ status: 'CANCELLED' }).where(eq(orders.id, doomed.id));
    const moved = await load(doomed.id, m2.id, d1.id, { status: 'DELIVERED', deliveredAt: now });
    await db.update(assignments).set({ orderId: smooth.id }).where(eq(assignments.id, moved.id));

    // Loads and costs in earlier months, one moved across a month end (finance_monthly).
    const september = await load(smooth.id, m1.id, d3.id, {
      status: 'DELIVERED',
      deliveredAt: new Date('2026-09-30T20:30:00Z'), // 1 October in Nairobi
    });
    await db
      .update(assignments)
      .set({ deliveredAt: new Date('2026-09-30T12:00:00Z') })
      .where(eq(assignments.id, september.id));
    await makeCost(db, {
      truckId: m2.id,
      type: 'REPAIR',
      amountCents: 250_000,
      incurredAt: new Date('2026-10-31T22:00:00Z'),
    });

    // Costs: edited in every column the rollups key on, voided, un-voided, voided again, deleted.
    const c1 = await makeCost(db, { truckId: m1.id, type: 'REPAIR', amountCents: 700_000, incurredAt: now });
    await db
      .update(costs)
      .set({
        truckId: m2.id,
        type: 'LOADING',
        amountCents: 150_050,
        incurredAt: new Date('2026-11-24T21:30:00Z'),
      })
      .where(eq(costs.id, c1.id));
    const c2 = await makeCost(db, { truckId: null, type: 'SALARY', amountCents: 90_000, incurredAt: now });
    await db.update(costs).set({ voidedAt: now }).where(eq(costs.id, c2.id));
    await db.update(costs).set({ voidedAt: null }).where(eq(costs.id, c2.id));
    const c3 = await makeCost(db, { truckId: m1.id, type: 'FUEL', amountCents: 1_400_000, incurredAt: now });
    await db.update(costs).set({ voidedAt: now, amountCents: 1_500_000 }).where(eq(costs.id, c3.id));
    const c4 = await makeCost(db, { truckId: m2.id, type: 'OTHER', amountCents: 33_300, incurredAt: now });
    await db.delete(costs).where(eq(costs.id, c4.id));

    // Stock: a movement re-weighed and moved to the other category, another deleted.
    const s1 = await makeStock(db, { tonnes: 40, category: 'coarse' });
    await db
      .update(stockTransactions)
      .set({ tonnes: 35.5, category: 'smooth' })
      .where(eq(stockTransactions.id, s1.id));
    const s2 = await makeStock(db, { tonnes: 12.25, category: 'coarse' });
    await db.delete(stockTransactions).where(eq(stockTransactions.id, s2.id));

    // A re-priced order, a deleted delivered load, a deleted order with a delivered load, a deleted driver.
    await db.update(orders).set({ perTruckCents: 3_300_000 }).where(eq(orders.id, coarse.id));
    const gone = await load(coarse.id, m2.id, d2.id, { status: 'DELIVERED', deliveredAt: now });
    await db.delete(assignments).where(eq(assignments.id, gone.id));
    const dropped = await makeOrder(db, { status: 'RECEIVED' });
    await load(dropped.id, m1.id, d1.id, { tonnes: 11, status: 'DELIVERED', deliveredAt: now });
    await db.delete(orders).where(eq(orders.id, dropped.id));
    await db.delete(drivers).where(eq(drivers.id, d2.id));

    // Trips (trip_facts): a delivered load's yard exit, site visit and yard arrival recorded by the geofence,
    // some before and some after delivery, one late and out of order; the truck's arrival before the exit
    // recorded late, then moved and deleted; crossings moved between loads; its GPS km measured, re-measured
    // and dropped; costs linked, re-priced, voided and moved to another load; its order's site re-named.
    const fence = (truckId: string, kind: string, assignmentId: number | null, at: string) =>
      rows<{ id: number }>(
        db,
        sql`insert into geofence_events (truck_id, kind, order_id, assignment_id, at, confirmed_at, lat, lng)
            values (${truckId}, ${kind}, null, ${assignmentId}, ${at}::timestamptz, ${at}::timestamptz, -1.03, 37.07)
            returning id`,
      ).then((r) => r[0]!.id);
    const trip = await load(smooth.id, m2.id, d3.id, { status: 'IN_TRANSIT' });
    await fence(m2.id, 'YARD_EXIT', trip.id, '2026-11-26T05:00:00Z');
    await fence(m2.id, 'SITE_ENTRY', trip.id, '2026-11-26T06:10:00Z');
    await move(trip.id, 'DELIVERED');
    await fence(m2.id, 'SITE_EXIT', trip.id, '2026-11-26T06:50:00Z');
    await fence(m2.id, 'YARD_ENTRY', trip.id, '2026-11-26T08:00:00Z');
    await fence(m2.id, 'SITE_ENTRY', trip.id, '2026-11-26T06:05:00Z'); // a late fix: the visit began earlier
    const other = await load(coarse.id, m1.id, d1.id, { status: 'DELIVERED', deliveredAt: now });
    const stray = await fence(m1.id, 'SITE_EXIT', trip.id, '2026-11-26T07:00:00Z');
    await db.execute(sql`update geofence_events set assignment_id = ${other.id} where id = ${stray}`);
    await db.execute(sql`insert into trip_km (assignment_id, truck_id, yard_exit_at, yard_entry_at, km)
                         values (${trip.id}, ${m2.id}, '2026-11-26T05:00:00Z', '2026-11-26T08:00:00Z', 29.5)`);
    await db.execute(sql`update trip_km set km = 56.5 where assignment_id = ${trip.id}`);
    await db.execute(sql`insert into trip_km (assignment_id, truck_id, yard_exit_at, yard_entry_at, km)
                         values (${other.id}, ${m1.id}, '2026-11-26T05:00:00Z', '2026-11-26T08:00:00Z', 12)`);
    await db.execute(sql`delete from trip_km where assignment_id = ${other.id}`);
    const loading = await makeCost(db, {
      truckId: m2.id,
      type: 'LOADING',
      amountCents: 120_000,
      incurredAt: now,
    });
    await db.update(costs).set({ assignmentId: trip.id }).where(eq(costs.id, loading.id));
    const offload = await makeCost(db, {
      truckId: m2.id,
      type: 'OFFLOADING',
      amountCents: 80_050,
      incurredAt: now,
      assignmentId: trip.id,
    });
    await db.update(costs).set({ amountCents: 90_050 }).where(eq(costs.id, offload.id));
    const wrong = await makeCost(db, {
      truckId: m1.id,
      type: 'LOADING',
      amountCents: 60_000,
      incurredAt: now,
      assignmentId: trip.id,
    });
    await db.update(costs).set({ assignmentId: other.id }).where(eq(costs.id, wrong.id));
    await db.update(costs).set({ voidedAt: now }).where(eq(costs.id, wrong.id));
    await db
      .update(orders)
      .set({ site: 'Ruiru, Membley estate', distanceKm: 31.4 })
      .where(eq(orders.id, smooth.id));
    // Last, so no other change to the load recomputes its row: the truck's arrival before it, reported late.
    const before = await fence(m2.id, 'YARD_ENTRY', null, '2026-11-26T03:30:00Z'); // reported late
    const earlier = await fence(m2.id, 'YARD_ENTRY', null, '2026-11-25T18:00:00Z');
    await db.execute(sql`update geofence_events set at = '2026-11-26T04:15:00Z' where id = ${before}`);
    await db.execute(sql`delete from geofence_events where id = ${earlier}`);
    const wrongly = await fence(m2.id, 'YARD_ENTRY', null, '2026-11-26T04:40:00Z'); // recorded, then withdrawn
    await db.execute(sql`delete from geofence_events where id = ${wrongly}`);
    const [facts] = await rows<Record<string, string | null>>(
      db,
      sql`select site, prev_yard_entry_at = '2026-11-26T04:15:00Z' as prev, site_entry_at = '2026-11-26T06:05:00Z' as entry,
                 linked_cents::text as linked, gps_km::text as km from trip_facts where assignment_id = ${trip.id}`,
    );
    expect(facts).toEqual({
      site: 'Ruiru, Membley estate',
      prev: true,
      entry: true,
      linked: '210050',
      km: '56.5',
    });

    for (const [name, { kept, raw, rebuild }] of Object.entries(ROLLUPS)) {
      const maintained = await snapshot(kept);
      expect(maintained.length, name).toBeGreaterThan(0);
      expect(maintained, name).toEqual(await snapshot(raw));
      await db.execute(sql.raw(`select ${rebuild}()`));
      expect(await snapshot(kept), `${name} after ${rebuild}()`).toEqual(maintained);
    }
  });

  it('reads yard_stock from the running balance: the same sums as over every movement', async () => {
    const [view] = await rows<Record<string, string>>(
      t.database.db,
      sql`select coarse_tonnes::text as c, smooth_tonnes::text as s, tonnes::text as t from yard_stock`,
    );
    const [raw] = await rows<Record<string, string>>(
      t.database.db,
      sql`select coalesce(sum(tonnes) filter (where category = 'coarse'), 0)::numeric(14,2)::text as c,
                 coalesce(sum(tonnes) filter (where category = 'smooth'), 0)::numeric(14,2)::text as s,
                 coalesce(sum(tonnes), 0)::numeric(14,2)::text as t
          from stock_transactions`,
    );
    expect(view).toEqual(raw);
  });
});
