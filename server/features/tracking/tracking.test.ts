import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etaMinutesFromPace } from '../../../shared/domain/geofence';
import {
  makeAssignment,
  makeDriver,
  makeLatestPosition,
  makeOrder,
  makePosition,
  makeTruck,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/helpers';

const NOW = new Date('2026-11-26T09:00:00Z');
const SITE = { lat: -1.03, lng: 37.07 };
const TRUCK_AT = { lat: -1.1, lng: 37.01 };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => NOW });
});
afterAll(() => t.close());

/** An order with a site point and three loads: scheduled, on the road (40 km/h lately) and delivered. */
async function trackedOrder(app: TestApp) {
  const db = app.database.db;
  const order = await makeOrder(db, {
    trucks: 3,
    status: 'IN_TRANSIT',
    siteLat: SITE.lat,
    siteLng: SITE.lng,
    siteRadiusM: 150,
    siteSource: 'pin',
  });
  const driver = await makeDriver(db, { name: 'Otieno Onyango', phone: '0711222333' });
  const [waiting, moving, done] = [await makeTruck(db), await makeTruck(db), await makeTruck(db)];
  const scheduled = await makeAssignment(db, { orderId: order.id, truckId: waiting.id, driverId: driver.id });
  const onRoad = await makeAssignment(db, {
    orderId: order.id,
    truckId: moving.id,
    driverId: driver.id,
    status: 'IN_TRANSIT',
    inTransitAt: new Date(NOW.getTime() - 20 * 60_000),
  });
  const delivered = await makeAssignment(db, {
    orderId: order.id,
    truckId: done.id,
    driverId: driver.id,
    status: 'DELIVERED',
    deliveredAt: new Date(NOW.getTime() - 60 * 60_000),
  });
  for (const truck of [waiting, moving, done])
    await makeLatestPosition(db, { truckId: truck.id, ...TRUCK_AT, fixTime: NOW, speedKmh: 40, heading: 90 });
  for (const [minutesAgo, kmh] of [
    [10, 30],
    [5, 50],
    [1, 40],
    [40, 5], // outside the recent window: not counted
  ] as const)
    await makePosition(db, {
      truckId: moving.id,
      fixTime: new Date(NOW.getTime() - minutesAgo * 60_000),
      ...TRUCK_AT,
      speedKmh: kmh,
    });
  return { order, scheduled, onRoad, delivered, moving };
}

describe('GET /api/track/{token}', () => {
  it('answers 404 for an unknown token, with no sign-in needed', async () => {
    const res = await t.call('GET', '/api/track/0123456789abcdef0123456789abcdef');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Tracking link not found.' });
    expect((await t.call('GET', '/api/track/1%00')).statusCode).toBe(404);
  });

  it('answers the status, loads, position and ETA only while on the road, delivered times, and no costs', async () => {
    const { order, scheduled, onRoad, delivered, moving } = await trackedOrder(t);
    const res = await t.call('GET', `/api/track/${order.trackingToken}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      orderId: order.id,
      status: 'IN_TRANSIT',
      sitePoint: { ...SITE, radiusM: 150, source: 'pin' },
      deliveryCode: order.deliveryCode,
      refreshSeconds: 15,
      // A number to call about the order: the office's, never a person's unless allowed.
      dispatch: { phone: '+254 700 000 000', whatsapp: 'https://wa.me/254700000000' },
    });
    const byId = new Map(body.loads.map((l: { id: number }) => [l.id, l]));
    const first = byId.get(scheduled.id) as Record<string, unknown>;
    expect(first.status).toBe('SCHEDULED');
    expect(first.position).toBeUndefined();
    expect(first.etaMinutes).toBeUndefined();
    const road = byId.get(onRoad.id) as Record<string, unknown>;
    expect(road).toMatchObject({
      plate: moving.plate,
      status: 'IN_TRANSIT',
      position: { ...TRUCK_AT, heading: 90, speedKmh: 40, at: NOW.toISOString() },
      driverName: 'Otieno',
    });
    // Remaining distance × road factor ÷ the recent average (30, 50, 40 → 40 km/h).
    const expected = etaMinutesFromPace(TRUCK_AT, SITE, 40)!;
    expect(expected).toBeGreaterThan(0);
    expect(road.etaMinutes).toBe(expected);
    const done = byId.get(delivered.id) as Record<string, unknown>;
    expect(done.deliveredAt).toBe(new Date(NOW.getTime() - 60 * 60_000).toISOString());
    expect(done.position).toBeUndefined();
    // No money, no customer, no driver phone unless the setting allows it.
    const text = res.body;
    for (const secret of [
      'total',
      'perTruck',
      'per_truck',
      'price',
      'Cents',
      '0711222333',
      order.email,
      order.phone,
    ])
      expect(text).not.toContain(secret);
  });

  it('gives the driver phone only with TRACKING_DRIVER_PHONE, and the ETA from OSRM when configured', async () => {
    let asked = '';
    const osrm: Server = createServer((req, res) => {
      asked = req.url ?? '';
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ code: 'Ok', routes: [{ distance: 9000, duration: 754 }] }));
    });
    await new Promise<void>((resolve) => osrm.listen(0, '127.0.0.1', resolve));
    const app = await createTestApp({
      now: () => NOW,
      settings: {
        tracking: { siteRadiusM: 150, showDriverPhone: true },
        osrmUrl: `http://127.0.0.1:${(osrm.address() as AddressInfo).port}`,
      },
    });
    try {
      const { order, onRoad, scheduled } = await trackedOrder(app);
      const body = (await app.call('GET', `/api/track/${order.trackingToken}`)).json();
      const road = body.loads.find((l: { id: number }) => l.id === onRoad.id);
      expect(road.etaMinutes).toBe(13); // 754 s
      expect(asked).toBe(
        `/route/v1/driving/${TRUCK_AT.lng},${TRUCK_AT.lat};${SITE.lng},${SITE.lat}?overview=false`,
      );
      expect(road.driverPhone).toBe('0711222333');
      expect(body.loads.find((l: { id: number }) => l.id === scheduled.id).driverPhone).toBe('0711222333');
    } finally {
      await app.close();
      osrm.close();
    }
  });

  it('leaves the ETA out when the pace is unknown, and says 0 at the site', async () => {
    const db = t.database.db;
    const order = await makeOrder(db, {
      siteLat: SITE.lat,
      siteLng: SITE.lng,
      siteRadiusM: 150,
      siteSource: 'pin',
    });
    const truck = await makeTruck(db);
    const other = await makeTruck(db);
    await makeLatestPosition(db, { truckId: truck.id, ...TRUCK_AT, fixTime: NOW });
    await makeLatestPosition(db, { truckId: other.id, ...SITE, fixTime: NOW });
    const noPace = await makeAssignment(db, { orderId: order.id, truckId: truck.id, status: 'IN_TRANSIT' });
    const there = await makeAssignment(db, { orderId: order.id, truckId: other.id, status: 'ARRIVED' });
    const loads = (await t.call('GET', `/api/track/${order.trackingToken}`)).json().loads;
    const a = loads.find((l: { id: number }) => l.id === noPace.id);
    expect(a.position).toMatchObject(TRUCK_AT);
    expect(a).not.toHaveProperty('etaMinutes');
    expect(loads.find((l: { id: number }) => l.id === there.id)).toMatchObject({
      etaMinutes: 0,
      position: SITE,
    });
  });

  it('is rate-limited per address (429 with Retry-After)', async () => {
    const app = await createTestApp({ now: () => NOW, limits: { trackPerIp: { points: 2, duration: 60 } } });
    try {
      const order = await makeOrder(app.database.db);
      const url = `/api/track/${order.trackingToken}`;
      expect((await app.call('GET', url)).statusCode).toBe(200);
      expect((await app.call('GET', '/api/track/nope')).statusCode).toBe(404);
      const third = await app.call('GET', url);
      expect(third.statusCode).toBe(429);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });
});

describe('tracking links and delivery codes in the order listings', () => {
  it('lists trackingUrl for the customer and ADMIN/OPS; the delivery code only in My Orders', async () => {
    const customer = await t.signIn('CUSTOMER');
    const placed = await t.call('POST', '/api/orders', customer, {
      site: 'Juja, Gachororo',
      sandType: 'coarse',
      trucks: 1,
      distanceKm: 12,
    });
    expect(placed.statusCode).toBe(201);
    const id = placed.json().id;
    const mine = (await t.call('GET', '/api/orders/my', customer))
      .json()
      .find((o: { id: number }) => o.id === id);
    expect(mine.trackingUrl).toMatch(/^\/track\/[0-9a-f]{32}$/);
    expect(mine.deliveryCode).toMatch(/^\d{4}$/);
    const admin = (await t.call('GET', '/api/admin/orders', await t.signIn('ADMIN')))
      .json()
      .find((o: { id: number }) => o.id === id);
    expect(admin.trackingUrl).toBe(mine.trackingUrl);
    expect(admin).not.toHaveProperty('deliveryCode');
    // Ops sees the phone given with the order, to call the customer.
    expect(admin.phone).toBe(mine.phone);
    const token = mine.trackingUrl.split('/').at(-1);
    const tracked = (await t.call('GET', `/api/track/${token}`)).json();
    expect(tracked).toMatchObject({ orderId: id, deliveryCode: mine.deliveryCode, loads: [] });
  });
});

describe('PUT /api/orders/{id}/site', () => {
  it("takes the customer's pin or pasted shared location, refuses what it cannot read, and only their own open order", async () => {
    const customer = await t.signIn('CUSTOMER');
    const other = await t.signIn('CUSTOMER');
    const order = await makeOrder(t.database.db, { customerId: customer.user.id });
    const url = `/api/orders/${order.id}/site`;

    const pin = await t.call('PUT', url, customer, { lat: -1.1319, lng: 36.9784 });
    expect(pin.statusCode).toBe(200);
    expect(pin.json()).toEqual({ lat: -1.1319, lng: 36.9784, radiusM: 150, source: 'pin' });

    for (const [shared, lat, lng] of [
      ['geo:-1.1466,36.9609?z=17', -1.1466, 36.9609],
      ['Here: https://www.google.com/maps/@-1.1021,37.0144,17z', -1.1021, 37.0144],
      ['https://maps.apple.com/?ll=-1.0767,37.0278&q=Site', -1.0767, 37.0278],
    ] as const) {
      const res = await t.call('PUT', url, customer, { shared });
      expect(res.statusCode, shared).toBe(200);
      expect(res.json()).toMatchObject({ lat, lng, source: 'link' });
    }
    const tracked = (await t.call('GET', `/api/track/${order.trackingToken}`)).json();
    expect(tracked.sitePoint).toEqual({ lat: -1.0767, lng: 37.0278, radiusM: 150, source: 'link' });

    const refusals = [
      [
        { shared: 'behind the church' },
        400,
        'That is not a location we can read. Paste a link shared from Google Maps or Apple Maps, a geo: link, or the coordinates.',
      ],
      [
        { shared: 'https://maps.app.goo.gl/abc123' },
        400,
        'That short link could not be opened. Open it in your maps app and share the coordinates, or drop a pin.',
      ],
      [
        { lat: 51.5, lng: -0.12 },
        400,
        'Put the site in Kenya: that point is outside the area we deliver to.',
      ],
      [{}, 400, 'Drop a pin on the site, or paste a location shared from your maps app.'],
    ] as const;
    for (const [body, status, error] of refusals) {
      const res = await t.call('PUT', url, customer, body);
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({ error });
    }
    const notMine = await t.call('PUT', url, other, { lat: -1.1, lng: 37 });
    expect(notMine.statusCode).toBe(404);
    expect(notMine.json()).toEqual({ error: 'Order not found.' });

    const delivered = await makeOrder(t.database.db, { customerId: customer.user.id, status: 'DELIVERED' });
    const closed = await t.call('PUT', `/api/orders/${delivered.id}/site`, customer, { lat: -1.1, lng: 37 });
    expect(closed.statusCode).toBe(409);
    const byOps = await t.call('PUT', url, await t.signIn('OPS'), { lat: -1.2, lng: 37.1 });
    expect(byOps.json()).toMatchObject({ lat: -1.2, lng: 37.1, source: 'pin' });
  });
});
