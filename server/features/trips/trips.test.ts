import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geofenceEvents } from '../../../drizzle/schema';
import { makeAssignment, makeDriver, makeOrder, makeTruck } from '../../../test/factories';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/helpers';
import { describeRoleMatrix } from '../../../test/role-matrix';

const NOW = new Date('2026-11-27T12:00:00Z');
let t: TestApp;
let ops: SignedIn;
beforeAll(async () => {
  t = await createTestApp({ now: () => NOW });
  ops = await t.signIn('OPS');
});
afterAll(() => t.close());

/** Nairobi wall-clock time on 26 Nov 2026. */
const at = (hhmm: string) => new Date(`2026-11-26T${hhmm}:00+03:00`);

/**
 * A simulated round trip, its geofence events written as the engine (core/telemetry/geofence.ts)
 * writes them: the yard exit, site entry and exit and the yard entry, each carrying the load and order.
 */
async function trip(
  truck: { id: string },
  driverId: string,
  times: { scheduled: string; out: string; site: string; left: string; back: string },
) {
  const order = await makeOrder(t.database.db, {
    status: 'DELIVERED',
    paymentStatus: 'CONFIRMED',
    site: 'Ruiru',
  });
  const load = await makeAssignment(t.database.db, {
    orderId: order.id,
    truckId: truck.id,
    driverId,
    status: 'DELIVERED',
    scheduledAt: at(times.scheduled),
    deliveredAt: at(times.left),
  });
  const events = [
    ['YARD_EXIT', times.out],
    ['SITE_ENTRY', times.site],
    ['SITE_EXIT', times.left],
    ['YARD_ENTRY', times.back],
  ] as const;
  await t.database.db.insert(geofenceEvents).values(
    events.map(([kind, hhmm]) => ({
      truckId: truck.id,
      kind,
      orderId: order.id,
      assignmentId: load.id,
      at: at(hhmm),
      confirmedAt: new Date(at(hhmm).getTime() + 30_000),
      lat: -1.1,
      lng: 37,
    })),
  );
  return load;
}

describe('cycle times from a simulated day of trips', () => {
  it('times each phase of each delivered load, medians per truck and driver, and the slowest with its cause', async () => {
    const truck = await makeTruck(t.database.db, { plate: 'KCY 101C' });
    const driver = await makeDriver(t.database.db, { name: 'Wanjiku Trips' });
    // The truck starts the day at the yard (06:20), then three trips; the second waits 115 min on site.
    await t.database.db.insert(geofenceEvents).values({
      truckId: truck.id,
      kind: 'YARD_ENTRY',
      at: at('06:20'),
      confirmedAt: at('06:21'),
      lat: -1.1,
      lng: 37,
    });
    const first = await trip(truck, driver.id, {
      scheduled: '07:00',
      out: '07:25',
      site: '08:10',
      left: '08:40',
      back: '09:30',
    });
    const second = await trip(truck, driver.id, {
      scheduled: '09:40',
      out: '10:05',
      site: '10:50',
      left: '12:45',
      back: '13:35',
    });
    await trip(truck, driver.id, {
      scheduled: '13:45',
      out: '14:10',
      site: '14:55',
      left: '15:25',
      back: '16:20',
    });

    const res = await t.call('GET', '/api/admin/trips?days=7&by=truck', ops);
    expect(res.statusCode).toBe(200);
    const group = res.json().groups.find((g: { key: string }) => g.key === truck.id);
    expect(group).toMatchObject({
      name: 'KCY 101C',
      trips: 3,
      medians: { yardWait: 10, loading: 25, travelOut: 45, onSite: 30, return: 50, total: 190 },
    });
    expect(group.slowest[0]).toMatchObject({
      assignmentId: second.id,
      minutes: { yardWait: 10, loading: 25, travelOut: 45, onSite: 115, return: 50, total: 245 },
      cause: 'time on site 115 min (usually 30)',
    });
    // The first trip: waited at the yard from 06:20 to its 07:00 slot, loaded until 07:25.
    const firstRow = group.slowest.find((s: { assignmentId: number }) => s.assignmentId === first.id);
    expect(firstRow.minutes).toEqual({
      yardWait: 40,
      loading: 25,
      travelOut: 45,
      onSite: 30,
      return: 50,
      total: 190,
    });

    const byDriver = (await t.call('GET', '/api/admin/trips?days=30&by=driver', ops)).json();
    expect(byDriver.groups.find((g: { key: string }) => g.key === driver.id)).toMatchObject({
      name: 'Wanjiku Trips',
      trips: 3,
    });

    // The driver sees their own.
    const me = await t.signIn('DRIVER', { driverId: driver.id });
    const own = await t.call('GET', '/api/driver/trips?days=7', me);
    expect(own.statusCode).toBe(200);
    expect(own.json().trips.map((x: { assignmentId: number }) => x.assignmentId)).toHaveLength(3);
    expect(own.json().medians.total).toBe(190);

    // Out of the 7-day window, in the 30-day one.
    const later = await createTestApp({ now: () => new Date('2026-12-10T12:00:00Z') });
    try {
      expect(
        (await later.call('GET', '/api/admin/trips?days=7', await later.signIn('OPS'))).json().groups,
      ).toEqual([]);
    } finally {
      await later.close();
    }
  });

  it('refuses a window other than 7 or 30 days', async () => {
    const res = await t.call('GET', '/api/admin/trips?days=14', ops);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Days are 7 or 30.');
  });
});

describeRoleMatrix('trips', () => t, [
  ['GET', '/api/admin/trips', ['ADMIN', 'OPS']],
  ['GET', '/api/driver/trips', ['DRIVER']],
]);
