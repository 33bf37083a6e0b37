import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAssignment, makeDriver, makeOrder, makeTruck } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
const now = new Date('2026-11-26T12:00:00Z'); // Thursday

beforeAll(async () => {
  t = await createTestApp({
    now: () => now,
    settings: { dataDir: `/tmp/mchanga-driver-dashboard-test-${process.pid}` },
  });
});
afterAll(() => t.close());

/** A one-truck order with one load; delivered when `deliveredAt` is given. */
async function load(
  driverId: string,
  truckId: string,
  tonnes: number,
  deliveredAt: string | null,
  perTruckCents = 3_200_000,
) {
  const order = await makeOrder(t.database.db, {
    site: `Site ${tonnes}`,
    perTruckCents,
    status: 'RECEIVED',
  });
  return makeAssignment(t.database.db, {
    orderId: order.id,
    truckId,
    driverId,
    tonnes,
    status: deliveredAt ? 'DELIVERED' : 'SCHEDULED',
    deliveredAt: deliveredAt ? new Date(deliveredAt) : null,
  });
}

describe('driver dashboard', () => {
  it("gives an open job the customer's name and phone and the site's point; a delivered one keeps no phone", async () => {
    const db = t.database.db;
    const driver = await makeDriver(db, { name: 'Otieno Jobs' });
    const truck = await makeTruck(db, { primaryDriverId: driver.id });
    const order = await makeOrder(db, {
      name: 'Mama Wanjiru',
      phone: '0712 345 678',
      site: 'Ruiru, Membley estate',
      siteLat: -1.1449,
      siteLng: 36.9612,
      siteRadiusM: 150,
      siteSource: 'pin',
      status: 'RECEIVED',
    });
    const open = await makeAssignment(db, { orderId: order.id, truckId: truck.id, driverId: driver.id });
    const done = await makeAssignment(db, {
      orderId: (await makeOrder(db, { phone: '0722000111', status: 'DELIVERED' })).id,
      truckId: truck.id,
      driverId: driver.id,
      status: 'DELIVERED',
      // Weeks ago: out of the leaderboards the next test counts.
      deliveredAt: new Date('2026-10-01T08:00:00Z'),
    });
    const self = await t.signIn('DRIVER', { driverId: driver.id });
    const jobs = (await t.call('GET', '/api/driver/dashboard', self)).json().assignments;
    expect(jobs.find((a: { id: number }) => a.id === open.id)).toMatchObject({
      customerName: 'Mama Wanjiru',
      customerPhone: '0712 345 678',
      sitePoint: { lat: -1.1449, lng: 36.9612 },
    });
    expect(jobs.find((a: { id: number }) => a.id === done.id)).toMatchObject({
      customerName: null,
      customerPhone: null,
      sitePoint: null,
    });
  });

  it('computes the week from delivered loads, with rank, trend and recent loads; a driver sees only their own', async () => {
    const db = t.database.db;
    const admin = await t.signIn('ADMIN');
    const one = await makeDriver(db, { name: 'Kamau One' });
    const two = await makeDriver(db, { name: 'Wanjiru Two' });
    const truck1 = await makeTruck(db, { primaryDriverId: one.id });
    const truck2 = await makeTruck(db, { primaryDriverId: two.id });
    await load(one.id, truck1.id, 20, '2026-11-24T08:00:00Z');
    await load(one.id, truck1.id, 18, '2026-11-25T08:00:00Z');
    await load(one.id, truck1.id, 20, '2026-11-18T08:00:00Z'); // last week
    await load(two.id, truck2.id, 20, '2026-11-24T08:00:00Z', 4_000_000);
    const scheduled = await load(one.id, truck1.id, 20, null);

    const self = await t.signIn('DRIVER', { driverId: one.id });
    const res = await t.call('GET', `/api/driver/dashboard?driverId=${one.id}`, self);
    expect(res.statusCode).toBe(200);
    const d = res.json();
    expect(d).toMatchObject({ driverName: 'Kamau One', rank: 1 });
    expect(d.summary).toEqual({
      loadsDelivered: 2,
      tonnesDelivered: 38,
      weeklyRevenue: 60800,
      previousWeekRevenue: 32000,
      averageTonnesPerLoad: 19,
      trend: -0.05,
    });
    expect(d.leaderboard).toEqual([
      { driverId: one.id, name: 'Kamau One', revenue: 60800 },
      { driverId: two.id, name: 'Wanjiru Two', revenue: 40000 },
    ]);
    expect(d.assignments).toHaveLength(4);
    expect(d.assignments[0]).toMatchObject({
      site: expect.any(String),
      plate: truck1.plate,
      estimatedRevenue: expect.any(Number),
    });
    // A load not yet delivered is estimated by the same revenue rule.
    expect(d.assignments.find((a: { id: number }) => a.id === scheduled.id).estimatedRevenue).toBe(32000);
    expect(d.telemetry.map((x: { truckId: string }) => x.truckId)).toEqual([truck1.id]);

    expect((await t.call('GET', `/api/driver/dashboard?driverId=${two.id}`, self)).statusCode).toBe(403);
    expect((await t.call('GET', '/api/driver/dashboard', self)).json().driverId).toBe(one.id);
    expect((await t.call('GET', `/api/driver/dashboard?driverId=${two.id}`, admin)).json().rank).toBe(2);
    // Without a driver, ADMIN gets the directory's first one (see below), not a refusal.
    expect((await t.call('GET', '/api/driver/dashboard', admin)).statusCode).toBe(200);
    const unlinked = await t.signIn('DRIVER', { driverId: null });
    expect((await t.call('GET', '/api/driver/dashboard', unlinked)).statusCode).toBe(403);
    expect((await t.call('GET', '/api/driver/dashboard', await t.signIn('OPS'))).statusCode).toBe(403);
  });

  it('lets a driver update their own profile and photo', async () => {
    const driver = await makeDriver(t.database.db);
    const self = await t.signIn('DRIVER', { driverId: driver.id });
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const res = await t.call('PUT', '/api/driver/profile', self, {
      name: '  Wanjiru Kamau ',
      email: 'wanjiru@example.co.ke',
      phone: '0722333444',
      photoData: `data:image/png;base64,${png.toString('base64')}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: driver.id,
      name: 'Wanjiru Kamau',
      email: 'wanjiru@example.co.ke',
      photoPath: expect.stringMatching(/^driver-photo-/),
    });
    expect((await t.call('GET', `/api/uploads/${res.json().photoPath}`, self)).statusCode).toBe(200);
    const bad = await t.call('PUT', '/api/driver/profile', self, { name: '' });
    expect(bad.json()).toEqual({ error: 'Driver name is required.' });
    expect(
      (await t.call('PUT', '/api/driver/profile', await t.signIn('ADMIN'), { name: 'x' })).statusCode,
    ).toBe(403);
  });
});

describe('driver dashboard for ADMIN without a driver', () => {
  it("answers for the directory's first driver (by name), so a first visit is one request", async () => {
    const admin = await t.signIn('ADMIN');
    await makeDriver(t.database.db, { name: 'Zawadi Last' });
    const first = await makeDriver(t.database.db, { name: 'Aaron First' });
    const res = await t.call('GET', '/api/driver/dashboard', admin);
    expect(res.statusCode).toBe(200);
    const list = await t.call('GET', '/api/admin/drivers', admin);
    expect(res.json().driverId).toBe(list.json()[0].id);
    expect(res.json().driverId).toBe(first.id);
  });

  it('asks ADMIN to pick a driver when the directory is empty', async () => {
    const empty = await createTestApp();
    try {
      const res = await empty.call('GET', '/api/driver/dashboard', await empty.signIn('ADMIN'));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'Pick a driver before saving profile changes.' });
    } finally {
      await empty.close();
    }
  });
});
