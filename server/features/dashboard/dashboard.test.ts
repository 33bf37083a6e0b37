import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeAssignment,
  makeCost,
  makeDriver,
  makeOrder,
  makeStock,
  makeTruck,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { describeRoleMatrix } from '../../../test/role-matrix';

// The overview sums the whole business, so each test that asserts its figures has a database of its own.
const THURSDAY_NOON = new Date('2026-11-26T09:00:00Z'); // Thursday 12:00 in Nairobi

async function withApp(now: { at: Date }, fn: (t: TestApp) => Promise<void>) {
  const t = await createTestApp({ now: () => now.at });
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

describe('GET /api/admin/dashboard', () => {
  it('answers stock, open work, today and the last 7 days from delivered loads and costs', async () => {
    const clock = { at: THURSDAY_NOON };
    await withApp(clock, async (t) => {
      const db = t.database.db;
      const admin = await t.signIn('ADMIN');
      const truck = await makeTruck(db, { plate: 'KCX 123A' });
      const other = await makeTruck(db);
      const driver = await makeDriver(db, { name: 'Achieng Driver' });
      await makeStock(db, { tonnes: 50 });
      await makeStock(db, { kind: 'DELIVERY', tonnes: -20, trucks: -1 });
      const order = await makeOrder(db, { trucks: 2, perTruckCents: 3_200_000, status: 'IN_TRANSIT' });
      await makeOrder(db, { status: 'DELIVERED' });
      await makeOrder(db, { status: 'CANCELLED' });
      const delivered = {
        orderId: order.id,
        truckId: truck.id,
        driverId: driver.id,
        status: 'DELIVERED' as const,
      };
      await makeAssignment(db, { ...delivered, deliveredAt: new Date('2026-11-26T07:00:00Z') });
      await makeAssignment(db, { orderId: order.id, truckId: other.id, driverId: driver.id });
      await makeCost(db, { truckId: truck.id, amountCents: 2_000_000, incurredAt: THURSDAY_NOON });
      await makeCost(db, {
        truckId: truck.id,
        amountCents: 900_000,
        incurredAt: THURSDAY_NOON,
        voidedAt: THURSDAY_NOON,
      });

      const overview = await t.call('GET', '/api/admin/dashboard', admin);
      expect(overview.statusCode).toBe(200);
      expect(overview.json()).toEqual({
        stock: 30,
        yardName: 'Juja Yard',
        pendingOrders: 1,
        activeAssignments: 1,
        daily: { revenue: 32000, profit: 12000 },
        weekly: { revenue: 32000, profit: 12000 },
        expensesPerTruck: [{ truckId: truck.id, plate: 'KCX 123A', amount: 20000 }],
        topDrivers: [{ driverId: driver.id, name: 'Achieng Driver', tonnes: 20, revenue: 32000 }],
      });

      // A second load the same day; a day later both are in the week, not today.
      await makeAssignment(db, { ...delivered, deliveredAt: new Date('2026-11-26T08:00:00Z') });
      clock.at = new Date('2026-11-27T09:00:00Z');
      const tomorrow = (await t.call('GET', '/api/admin/dashboard', admin)).json();
      expect(tomorrow.daily).toEqual({ revenue: 0, profit: 0 });
      expect(tomorrow.weekly.revenue).toBe(64000);
      expect(tomorrow.expensesPerTruck).toEqual([]);
    });
  });

  it('takes revenue per load from delivered_loads (pro rata, half-up to the cent) and ranks at most five drivers', async () => {
    const clock = { at: THURSDAY_NOON };
    await withApp(clock, async (t) => {
      const db = t.database.db;
      const admin = await t.signIn('ADMIN');
      const truck = await makeTruck(db);
      const order = await makeOrder(db, { perTruckCents: 3_100_050, trucks: 8 });
      const drivers = [];
      for (let i = 0; i < 6; i++) drivers.push(await makeDriver(db, { name: `Driver ${i}` }));
      const deliver = (driverId: string, tonnes: number, at = '2026-11-26T06:00:00Z') =>
        makeAssignment(db, {
          orderId: order.id,
          truckId: truck.id,
          driverId,
          tonnes,
          status: 'DELIVERED',
          deliveredAt: new Date(at),
        });
      // 31,000.50 × 13 / 20 = 20,150.325 → 20,150.33 (one load rounds once, half-up).
      await deliver(drivers[0]!.id, 13);
      await deliver(drivers[1]!.id, 20);
      await deliver(drivers[2]!.id, 10);
      await deliver(drivers[3]!.id, 9, '2026-11-20T06:00:00Z');
      await deliver(drivers[4]!.id, 5, '2026-11-21T06:00:00Z');
      await deliver(drivers[5]!.id, 1, '2026-11-22T06:00:00Z');
      // Eight days ago: outside the week.
      await deliver(drivers[5]!.id, 20, '2026-11-18T06:00:00Z');

      const body = (await t.call('GET', '/api/admin/dashboard', admin)).json();
      expect(body.daily.revenue).toBe(66651.08);
      expect(body.topDrivers).toEqual([
        { driverId: drivers[1]!.id, name: 'Driver 1', tonnes: 20, revenue: 31000.5 },
        { driverId: drivers[0]!.id, name: 'Driver 0', tonnes: 13, revenue: 20150.33 },
        { driverId: drivers[2]!.id, name: 'Driver 2', tonnes: 10, revenue: 15500.25 },
        { driverId: drivers[3]!.id, name: 'Driver 3', tonnes: 9, revenue: 13950.23 },
        { driverId: drivers[4]!.id, name: 'Driver 4', tonnes: 5, revenue: 7750.13 },
      ]);
    });
  });
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describeRoleMatrix('dashboard', () => t, [['GET', '/api/admin/dashboard', ['ADMIN']]]);
