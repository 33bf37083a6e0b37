import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertDeliveries,
  assignments,
  drivers,
  orders,
  truckPositions,
  trucks,
} from '../../../drizzle/schema';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/helpers';

let t: TestApp;
let now = new Date('2026-11-26T09:00:00Z'); // Thursday
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp({
    now: () => now,
    config: { dataDir: `/tmp/mchanga-telemetry-test-${process.pid}` },
  });
  admin = await t.signIn('ADMIN');
  await t.database.db.insert(drivers).values([
    { id: 'DRV-1', name: 'Kamau One', phone: '0700000001' },
    { id: 'DRV-2', name: 'Wanjiru Two' },
  ]);
  await t.database.db.insert(trucks).values([
    { id: 'TRK-1', plate: 'KCA 001A', primaryDriverId: 'DRV-1', deviceId: 'phone-001' },
    { id: 'TRK-2', plate: 'KCB 002B', primaryDriverId: 'DRV-2', deviceId: 'tracker-002' },
    { id: 'TRK-3', plate: 'KCC 003C' },
  ]);
});
afterAll(() => t.close());

const osmand = (query: string) => t.app.inject({ method: 'POST', url: `/api/telemetry/osmand?${query}` });
const epoch = (d: Date) => Math.floor(d.getTime() / 1000);

describe('telemetry ingestion', () => {
  it('accepts OsmAnd by GET, POST query and POST form, and Traccar Client JSON', async () => {
    const ts = epoch(new Date(now.getTime() - 10 * 60_000));
    expect(
      (
        await t.app.inject({
          url: `/api/telemetry/osmand?id=phone-001&lat=-1.1466&lon=36.9609&timestamp=${ts}&speed=0`,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await osmand(
          `deviceid=phone-001&location=-1.1400,36.9700&timestamp=${ts + 60}&speed=20&bearing=90&batt=80`,
        )
      ).statusCode,
    ).toBe(200);
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/telemetry/osmand',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `id=tracker-002&lat=-1.0333&lon=37.0693&timestamp=${(ts + 60) * 1000}&speed=0&ignition=false`,
    });
    expect(form.statusCode).toBe(200);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/telemetry/osmand',
      payload: {
        device_id: 'phone-001',
        location: {
          timestamp: new Date(now.getTime() - 60_000).toISOString(),
          coords: { latitude: -1.1, longitude: 37.01, speed: 0, heading: 10 },
          battery: { level: 0.5 },
        },
      },
    });
    expect(json.statusCode).toBe(200);
    await t.jobs.drain();
    const history = await t.database.db.select().from(truckPositions);
    expect(history).toHaveLength(4);
    const res = await t.app.inject({ url: '/api/telemetry/trucks', headers: admin.headers });
    const one = res.json().find((r: { truckId: string }) => r.truckId === 'TRK-1');
    expect(one).toMatchObject({
      plate: 'KCA 001A',
      lat: -1.1,
      lng: 37.01,
      speed: 0,
      status: 'stopped',
      driverName: 'Kamau One',
      driverPhone: '0700000001',
      lastUpdated: new Date(now.getTime() - 60_000).toISOString(),
    });
    // Last moved at ts+60 (20 knots): 9 minutes idle since.
    expect(one.idleMinutes).toBe(9);
    expect(one.address).toMatch(/^Near /);
    const three = res.json().find((r: { truckId: string }) => r.truckId === 'TRK-3');
    expect(three).toMatchObject({ lat: null, idleMinutes: null, lastUpdated: null });
  });

  it('writes nothing twice when the same fixes arrive again or a job re-runs', async () => {
    const ts = epoch(new Date(now.getTime() - 30 * 60_000));
    await osmand(`id=tracker-002&lat=-1.0&lon=37.0&timestamp=${ts}`);
    await osmand(`id=tracker-002&lat=-1.0&lon=37.0&timestamp=${ts}`);
    await t.jobs.drain();
    const rows = await t.database.db
      .select()
      .from(truckPositions)
      .where(sql`${truckPositions.fixTime} = ${new Date(ts * 1000).toISOString()}`);
    expect(rows).toHaveLength(1);
    // An older fix never replaces the latest position.
    const latest = (await t.app.inject({ url: '/api/telemetry/trucks', headers: admin.headers }))
      .json()
      .find((r: { truckId: string }) => r.truckId === 'TRK-2');
    expect(latest.lat).toBe(-1.0333);
  });

  it.each([
    ['id=unknown-device&lat=1&lon=2', 404, /Unknown device/],
    ['id=phone-001&lat=91&lon=2', 400, /Latitude/],
    ['id=phone-001&lat=1&lon=-181', 400, /Longitude/],
    ['id=phone-001&lat=1&lon=2&timestamp=915148799', 400, /Fix time/],
    [`id=phone-001&lat=1&lon=2&timestamp=${epoch(new Date('2026-11-28T00:00:00Z'))}`, 400, /Fix time/],
    ['id=phone-001&lat=1&lon=2&speed=870', 400, /Speed/],
    ['lat=1&lon=2', 400, /device id/],
  ])('refuses %s with %i', async (query, status, message) => {
    const res = await osmand(query);
    expect(res.statusCode).toBe(status);
    expect(res.json().error).toMatch(message);
  });

  it('lets a DRIVER see only their trucks and FUEL read; customers are refused', async () => {
    const driver = await t.signIn('DRIVER', { driverId: 'DRV-2' });
    const seen = (await t.app.inject({ url: '/api/telemetry/trucks', headers: driver.headers })).json();
    expect(seen.map((r: { truckId: string }) => r.truckId)).toEqual(['TRK-2']);
    expect(
      (await t.app.inject({ url: '/api/telemetry/trucks', headers: (await t.signIn('FUEL')).headers }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ url: '/api/telemetry/trucks', headers: (await t.signIn('CUSTOMER')).headers }))
        .statusCode,
    ).toBe(403);
    expect((await t.app.inject({ url: '/api/telemetry/trucks' })).statusCode).toBe(401);
  });

  it('alerts once when a loaded truck stands idle too long', async () => {
    await t.signIn('OPS');
    const [o] = await t.database.db
      .insert(orders)
      .values({
        name: 'C',
        site: 'Ruiru',
        sandType: 'coarse',
        trucks: 1,
        perTruckCents: 3_200_000,
        totalCents: 3_200_000,
        distanceKm: 10,
        distanceSource: 'manual',
        status: 'RECEIVED',
      })
      .returning();
    await t.database.db
      .insert(assignments)
      .values({ orderId: o!.id, truckId: 'TRK-2', driverId: 'DRV-2', status: 'IN_TRANSIT' });
    now = new Date(now.getTime() + 60 * 60_000);
    await osmand(`id=tracker-002&lat=-1.0333&lon=37.0693&timestamp=${epoch(now)}&speed=0`);
    await osmand(`id=tracker-002&lat=-1.0333&lon=37.0693&timestamp=${epoch(now) + 30}&speed=0`);
    await t.jobs.drain();
    const alerts = await t.database.db
      .select()
      .from(alertDeliveries)
      .where(sql`${alertDeliveries.eventKey} like 'truck.idle:TRK-2@%'`);
    expect(new Set(alerts.map((a) => a.eventKey)).size).toBe(1);
  });
});

describe('driver dashboard and profile', () => {
  it('computes the week from delivered loads, with rank, trend and recent loads; a driver sees only their own', async () => {
    now = new Date('2026-11-26T12:00:00Z');
    const mk = async (
      driverId: string,
      truckId: string,
      tonnes: number,
      deliveredAt: string | null,
      perTruckCents = 3_200_000,
    ) => {
      const [o] = await t.database.db
        .insert(orders)
        .values({
          name: 'C',
          site: `Site ${tonnes}`,
          sandType: 'coarse',
          trucks: 1,
          perTruckCents,
          totalCents: perTruckCents,
          distanceKm: 10,
          distanceSource: 'manual',
          status: 'RECEIVED',
        })
        .returning();
      await t.database.db.insert(assignments).values({
        orderId: o!.id,
        truckId,
        driverId,
        tonnes,
        status: deliveredAt ? 'DELIVERED' : 'SCHEDULED',
        deliveredAt: deliveredAt ? new Date(deliveredAt) : null,
      });
    };
    await mk('DRV-1', 'TRK-1', 20, '2026-11-24T08:00:00Z');
    await mk('DRV-1', 'TRK-1', 18, '2026-11-25T08:00:00Z');
    await mk('DRV-1', 'TRK-1', 20, '2026-11-18T08:00:00Z'); // last week
    await mk('DRV-2', 'TRK-2', 20, '2026-11-24T08:00:00Z', 4_000_000);
    await mk('DRV-1', 'TRK-1', 20, null);

    const self = await t.signIn('DRIVER', { driverId: 'DRV-1' });
    const res = await t.app.inject({ url: '/api/driver/dashboard?driverId=DRV-1', headers: self.headers });
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
      { driverId: 'DRV-1', name: 'Kamau One', revenue: 60800 },
      { driverId: 'DRV-2', name: 'Wanjiru Two', revenue: 40000 },
    ]);
    expect(d.assignments.length).toBeGreaterThanOrEqual(4);
    expect(d.assignments[0]).toMatchObject({
      site: expect.any(String),
      plate: 'KCA 001A',
      estimatedRevenue: expect.any(Number),
    });
    expect(d.telemetry.map((x: { truckId: string }) => x.truckId)).toEqual(['TRK-1']);

    expect(
      (await t.app.inject({ url: '/api/driver/dashboard?driverId=DRV-2', headers: self.headers })).statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ url: '/api/driver/dashboard', headers: self.headers })).json().driverId,
    ).toBe('DRV-1');
    expect(
      (await t.app.inject({ url: '/api/driver/dashboard?driverId=DRV-2', headers: admin.headers })).json()
        .rank,
    ).toBe(2);
    expect((await t.app.inject({ url: '/api/driver/dashboard', headers: admin.headers })).json()).toEqual({
      error: 'Pick a driver before saving profile changes.',
    });
    const unlinked = await t.signIn('DRIVER', { driverId: null });
    expect((await t.app.inject({ url: '/api/driver/dashboard', headers: unlinked.headers })).statusCode).toBe(
      403,
    );
    expect(
      (await t.app.inject({ url: '/api/driver/dashboard', headers: (await t.signIn('OPS')).headers }))
        .statusCode,
    ).toBe(403);
  });

  it('lets a driver update their own profile and photo', async () => {
    const self = await t.signIn('DRIVER', { driverId: 'DRV-2' });
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/driver/profile',
      headers: self.headers,
      payload: {
        name: '  Wanjiru Kamau ',
        email: 'wanjiru@example.co.ke',
        phone: '0722333444',
        photoData: `data:image/png;base64,${png.toString('base64')}`,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: 'DRV-2',
      name: 'Wanjiru Kamau',
      email: 'wanjiru@example.co.ke',
      photoPath: expect.stringMatching(/^driver-photo-/),
    });
    expect(
      (await t.app.inject({ url: `/api/uploads/${res.json().photoPath}`, headers: self.headers })).statusCode,
    ).toBe(200);
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/driver/profile',
      headers: self.headers,
      payload: { name: '' },
    });
    expect(bad.json()).toEqual({ error: 'Driver name is required.' });
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/api/driver/profile',
          headers: admin.headers,
          payload: { name: 'x' },
        })
      ).statusCode,
    ).toBe(403);
  });
});
