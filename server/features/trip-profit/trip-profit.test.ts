import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertHistory } from '../../../core/telemetry/ingest.queries';
import { rollUpTrips } from '../../../core/telemetry/trip-km';
import { geofenceEvents } from '../../../drizzle/schema';
import { haversineKm } from '../../../shared/domain/distance';
import { makeAssignment, makeDriver, makeOrder, makeTruck } from '../../../test/factories';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/helpers';
import { testSettings } from '../../../test/settings';

const NOW = new Date('2026-11-27T12:00:00Z');
const T0 = Date.parse('2026-11-24T03:00:00Z'); // 06:00 Nairobi
const MIN = 60_000;
let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  const base = testSettings();
  t = await createTestApp({
    now: () => NOW,
    settings: {
      trips: {
        ...base.trips,
        allowanceCents: 50_000,
        cess: [
          { match: 'kiambu', cents: 30_000 },
          { match: '*', cents: 10_000 },
        ],
      },
    },
  });
  admin = await t.signIn('ADMIN');
});
afterAll(() => t.close());

/** `count` fixes 5 minutes apart from `start`, heading east 0.03° (3.3 km) a fix. */
function track(start: number, count: number, lng0: number) {
  return Array.from({ length: count }, (_, i) => ({
    at: start + i * 5 * MIN,
    lat: -1.1,
    lng: lng0 + i * 0.03,
  }));
}
const km = (fixes: Array<{ lat: number; lng: number }>) =>
  fixes.slice(1).reduce((sum, f, i) => sum + haversineKm(fixes[i]!, f), 0);
const cents = (kes: number) => Math.round(kes * 100);

describe('profit per trip', () => {
  it("a truck's breakdown equals the sum of its trips plus its costs that belong to no trip, to the cent", async () => {
    const db = t.database.db;
    const driver = await makeDriver(db);
    const tracked = await makeTruck(db, { plate: 'KDC 111A', deviceId: 'profit-dev-1' });
    const untracked = await makeTruck(db, { plate: 'KDC 222B' });

    // Tracked truck: 2 fills with 23 tracked fixes between (its consumption), then a tracked trip.
    const fillLeg = track(T0 + 10 * MIN, 24, 36.9);
    const tripLeg = track(T0 + 4 * 60 * MIN, 12, 37.1);
    // Through the worker's write path, which keeps the truck's GPS odometer.
    await insertHistory(
      db,
      [...fillLeg, ...tripLeg].map((f) => ({
        device_id: 'profit-dev-1',
        truck_id: tracked.id,
        fix_time: new Date(f.at).toISOString(),
        lat: f.lat,
        lng: f.lng,
        speed_kmh: 40,
        heading: null,
        altitude: null,
        accuracy: null,
        battery: null,
        attributes: {},
      })),
    );
    const fuel = await t.signIn('FUEL');
    const fill = (truckId: string, litres: number, cost: number, odometer: number, at: number) =>
      t.call('POST', '/api/fuel/logs', fuel, {
        truckId,
        litres,
        odometer,
        cost,
        capturedAt: new Date(at).toISOString(),
      });
    expect((await fill(tracked.id, 150, 25_050.5, 10_000, T0)).statusCode).toBe(201);
    expect((await fill(tracked.id, 31.37, 5_332.9, 10_080, T0 + 3 * 60 * MIN)).statusCode).toBe(201);
    expect((await fill(untracked.id, 100, 16_999.99, 5_000, T0)).statusCode).toBe(201);

    const order = (site: string) =>
      makeOrder(db, {
        site,
        status: 'DELIVERED',
        paymentStatus: 'CONFIRMED',
        perTruckCents: 3_198_777,
        distanceKm: 12.35,
      });
    const delivered = (orderId: number, truckId: string, tonnes: number, at: number) =>
      makeAssignment(db, {
        orderId,
        truckId,
        driverId: driver.id,
        tonnes,
        status: 'DELIVERED',
        deliveredAt: new Date(at),
      });
    const trip1 = await delivered((await order('Ruiru, Kiambu')).id, tracked.id, 19.37, T0 + 5 * 60 * MIN);
    const trip2 = await delivered((await order('Westlands')).id, tracked.id, 20, T0 + 8 * 60 * MIN);
    const trip3 = await delivered((await order('Juja, Kiambu')).id, untracked.id, 13.33, T0 + 6 * 60 * MIN);
    await db.insert(geofenceEvents).values(
      (
        [
          ['YARD_EXIT', tripLeg[0]!.at],
          ['YARD_ENTRY', tripLeg.at(-1)!.at],
        ] as const
      ).map(([kind, at]) => ({
        truckId: tracked.id,
        kind,
        assignmentId: trip1.id,
        at: new Date(at),
        confirmedAt: new Date(at),
        lat: -1.1,
        lng: 37,
      })),
    );
    // As the geofence step does on recording them: the trip's km rolled up (the view reads only that).
    await rollUpTrips(db, [trip1.id]);

    const cost = (truckId: string, type: string, amount: number, assignmentId?: number) =>
      t.call('POST', '/api/admin/costs', admin, {
        truckId,
        type,
        amount,
        description: `${type} test`,
        incurredAt: new Date(T0 + 9 * 60 * MIN).toISOString(),
        ...(assignmentId ? { assignmentId } : {}),
      });
    expect((await cost(tracked.id, 'LOADING', 1_234.56, trip1.id)).statusCode).toBe(201);
    expect((await cost(tracked.id, 'OFFLOADING', 987.65, trip2.id)).statusCode).toBe(201);
    expect((await cost(untracked.id, 'LOADING', 777.77, trip3.id)).statusCode).toBe(201);
    expect((await cost(tracked.id, 'REPAIR', 12_345.67)).statusCode).toBe(201);
    // A cost may name only a load of its own truck.
    const wrong = await cost(untracked.id, 'LOADING', 100, trip1.id);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe("Choose one of this truck's loads.");

    const range = '?from=2026-11-24&to=2026-11-24';
    const reportRes = await t.call('GET', `/api/admin/finance/trips${range}`, admin);
    expect(reportRes.statusCode, reportRes.body).toBe(200);
    const report = reportRes.json();
    const breakdown = (await t.call('GET', `/api/admin/finance/truck-breakdown${range}`, admin)).json();

    // Trip 1: its tracked kilometres at the truck's measured consumption and the last price paid.
    const rate = (31.37 / km(fillLeg)) * 100;
    const price = 533_290 / 31.37;
    const t1 = report.trips.find((x: { assignmentId: number }) => x.assignmentId === trip1.id);
    expect(t1).toMatchObject({ kmSource: 'gps', linkedCosts: 1_234.56, allowance: 500, cess: 300 });
    expect(cents(t1.fuel)).toBe(Math.round(((km(tripLeg) * rate) / 100) * price));
    expect(cents(t1.revenue)).toBe(Math.round((3_198_777 * 19.37) / 20));
    const t2 = report.trips.find((x: { assignmentId: number }) => x.assignmentId === trip2.id);
    expect(t2).toMatchObject({ kmSource: 'order', km: 24.7, cess: 100, linkedCosts: 987.65 });
    expect(cents(t2.fuel)).toBe(Math.round(((24.7 * rate) / 100) * price));
    // No tracked fills for the untracked truck: no consumption, so its fuel stays unallocated.
    const t3 = report.trips.find((x: { assignmentId: number }) => x.assignmentId === trip3.id);
    expect(t3).toMatchObject({ fuel: 0, linkedCosts: 777.77, cess: 300 });

    for (const truck of [tracked, untracked]) {
      const trips = report.trips.filter((x: { truckId: string }) => x.truckId === truck.id);
      const row = report.trucks.find((x: { truckId: string }) => x.truckId === truck.id);
      const b = breakdown.find((x: { truckId: string }) => x.truckId === truck.id);
      const sumTrips = trips.reduce((s: number, x: { margin: number }) => s + cents(x.margin), 0);
      const perTrip = trips.reduce(
        (s: number, x: { allowance: number; cess: number }) => s + cents(x.allowance) + cents(x.cess),
        0,
      );
      // The trips plus the costs that belong to no trip …
      expect(cents(row.margin)).toBe(sumTrips - cents(row.unallocatedCost));
      // … equal the finance breakdown's revenue − cost, less the trips' allowance and cess, to the cent.
      expect(cents(row.margin)).toBe(cents(b.revenue) - cents(b.cost) - perTrip);
      expect(cents(row.revenue)).toBe(cents(b.revenue));
    }
    expect(report.trucks.find((x: { truckId: string }) => x.truckId === untracked.id).unallocatedCost).toBe(
      16_999.99,
    );

    // A page of the list: the latest trips, newest first, and the per-truck totals still over all of them.
    expect(report.tripCount).toBe(report.trips.length);
    const newestFirst = report.trips.map((x: { deliveredAt: string }) => x.deliveredAt);
    expect(newestFirst).toEqual([...newestFirst].sort().reverse());
    const one = await t.call('GET', `/api/admin/finance/trips${range}&limit=1`, admin);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().trips).toEqual([report.trips[0]]);
    expect(one.json().tripCount).toBe(report.tripCount);
    expect(one.json().trucks).toEqual(report.trucks);
    for (const limit of ['0', '5001', '2.5', 'many']) {
      const refused = await t.call('GET', `/api/admin/finance/trips${range}&limit=${limit}`, admin);
      expect(refused.statusCode, limit).toBe(400);
      expect(refused.json().error).toBe('Ask for between 1 and 5000 rows.');
    }

    // Without dates (the finance tab until its Refresh, and its page's first request): the last 30 days.
    const last30 = (
      await t.call('GET', '/api/admin/finance/trips?from=2026-10-29&to=2026-11-27', admin)
    ).json();
    expect(last30.tripCount).toBe(report.tripCount);
    for (const query of ['', '?limit=100', '?to=2026-11-27'])
      expect((await t.call('GET', `/api/admin/finance/trips${query}`, admin)).json(), query).toEqual(last30);
    const earlier = await t.call('GET', '/api/admin/finance/trips?to=2026-11-23', admin);
    expect(earlier.json().tripCount).toBe(0);
  });

  it('only ADMIN reads trip profit', async () => {
    expect((await t.call('GET', '/api/admin/finance/trips', await t.signIn('OPS'))).statusCode).toBe(403);
  });
});
