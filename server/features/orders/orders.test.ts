import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOrder } from '../../../core/orders/orders.service';
import { alertDeliveries, orders, outbox, users } from '../../../drizzle/schema';
import { makeAssignment, makeDriver, makeLatestPosition, makeTruck, unique } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { describeRoleMatrix } from '../../../test/role-matrix';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const guest = {
  name: 'Mwangi Builders',
  phone: '0722 111 222',
  email: 'site@mwangi.co.ke',
  site: 'Membley estate, Ruiru',
  sandType: 'coarse',
  trucks: 2,
  dateNeeded: '2026-12-01',
};
const email = () => `${unique('guest').toLowerCase()}@mwangi.co.ke`;

/** The order.created alerts the outbox holds for an order (each becomes one fan-out). */
async function orderCreatedAlerts(app: TestApp, orderId: number): Promise<number> {
  const rows = await app.database.db
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        eq(outbox.job, 'alert.fanout'),
        sql`${outbox.payload}->>'kind' = 'order.created'`,
        sql`(${outbox.payload}->>'orderId')::int = ${orderId}`,
      ),
    );
  return rows.length;
}

describe('POST /api/orders/guest', () => {
  it('takes a guest order at AWAITING_PAYMENT with the quote', async () => {
    const res = await t.call('POST', '/api/orders/guest', null, guest);
    expect(res.statusCode).toBe(201);
    const id = res.json().id;
    expect(res.json()).toEqual({
      id: expect.any(Number),
      status: 'AWAITING_PAYMENT',
      perTruck: 32000,
      total: 64000,
      distanceKm: expect.any(Number),
      distanceSource: 'heuristic',
      truckCount: 2,
      sandType: 'coarse',
      accountRef: `MCH${id}`,
      paymentToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      // The guest's way back to the order without a login: the tracking page and the delivery code.
      trackingUrl: expect.stringMatching(/^\/track\/\w{20,}$/),
      deliveryCode: expect.stringMatching(/^\d{4}$/),
    });
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, res.json().id));
    expect(row).toMatchObject({
      paymentStatus: 'PENDING',
      customerId: null,
      totalCents: 6_400_000,
      dateNeeded: '2026-12-01',
      trackingToken: res.json().trackingUrl.slice('/track/'.length),
      deliveryCode: res.json().deliveryCode,
    });
    // The tracking link answers without a login.
    expect((await t.call('GET', `/api/track/${row!.trackingToken}`, null)).statusCode).toBe(200);
  });

  it('creates the portal login in the same step and signs the customer in', async () => {
    const address = email();
    const res = await t.call('POST', '/api/orders/guest', null, {
      ...guest,
      email: address,
      distanceKm: 30,
      account: { password: '  portal-pass  ', confirmPassword: 'portal-pass' },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      perTruck: 35000,
      distanceSource: 'manual',
      account: { user: { role: 'CUSTOMER', email: address } },
    });
    const mine = await t.app.inject({
      url: '/api/orders/my',
      headers: { authorization: `Bearer ${body.account.token}` },
    });
    expect(mine.json().map((o: { id: number }) => o.id)).toEqual([body.id]);
    // The password was trimmed before hashing: the trimmed form signs in.
    const login = await t.call('POST', '/api/auth/login', null, { email: address, password: 'portal-pass' });
    expect(login.statusCode).toBe(200);
  });

  it('refuses a portal login for an email that already has an account, and stores nothing', async () => {
    const address = email();
    await t.call('POST', '/api/auth/register', null, {
      name: 'Existing',
      email: address,
      password: 'password123',
    });
    const before = (await t.database.db.select().from(orders)).length;
    const res = await t.call('POST', '/api/orders/guest', null, {
      ...guest,
      email: address.toUpperCase(),
      account: { password: 'password123' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/already exists/);
    expect((await t.database.db.select().from(orders)).length).toBe(before);
  });

  it.each([
    [{ ...guest, site: '' }, 'Site is required.'],
    [
      { ...guest, email: '', account: { password: 'password123' } },
      'Email is required to create your portal login.',
    ],
    [{ ...guest, account: { password: ' 1234567 ' } }, 'Password must be at least 8 characters long.'],
    [
      { ...guest, account: { password: 'password123', confirmPassword: 'password124' } },
      'Passwords do not match.',
    ],
    [{ ...guest, trucks: 25 }, 'Trucks must be between 1 and 20.'],
    [{ ...guest, sandType: 'murram' }, 'Choose coarse or smooth sand.'],
    [{ ...guest, dateNeeded: 'tomorrow' }, 'Choose the date you need the sand.'],
    [{ ...guest, name: '' }, 'Name is required.'],
    [{ ...guest, phone: '' }, 'Phone is required.'],
  ])('refuses %j with 400', async (payload, message) => {
    const res = await t.call('POST', '/api/orders/guest', null, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: message });
  });

  it('alerts every active ADMIN and OPS user once, with the order in the text', async () => {
    await t.signIn('ADMIN');
    await t.signIn('OPS');
    const res = await t.call('POST', '/api/orders/guest', null, guest);
    const id = res.json().id;
    await t.jobs.drain();
    const rows = await t.database.db
      .select()
      .from(alertDeliveries)
      .where(eq(alertDeliveries.eventKey, `order.created:${id}`));
    const staff = await t.database.db
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.role, ['ADMIN', 'OPS']), isNull(users.disabledAt)));
    expect(rows.map((r) => r.recipientId).sort()).toEqual(staff.map((u) => u.id).sort());
    const [placedRow] = await t.database.db
      .select({ token: orders.trackingToken })
      .from(orders)
      .where(eq(orders.id, id));
    for (const row of rows) {
      expect(row.status).toBe('RECORDED');
      // With the customer's tracking link for dispatch to pass on.
      expect(row.text).toBe(
        `New order: order #${id}, 2 × coarse to Membley estate, Ruiru, KES 64,000 (Mwangi Builders, 0722 111 222); tracking /track/${placedRow!.token}`,
      );
    }
  });

  it('limits new portal logins per address with the registration allowance (429, Retry-After)', async () => {
    const limited = await createTestApp({ limits: { registerPerIp: { points: 2, duration: 60 } } });
    try {
      const withLogin = () =>
        limited.call('POST', '/api/orders/guest', null, {
          ...guest,
          email: email(),
          account: { password: 'password123' },
        });
      const registered = await limited.call('POST', '/api/auth/register', null, {
        name: 'Neighbour',
        email: email(),
        password: 'password123',
      });
      expect(registered.statusCode).toBe(201);
      expect((await withLogin()).statusCode).toBe(201);
      const before = (await limited.database.db.select().from(orders)).length;
      const refused = await withLogin();
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.json().error).toMatch(/^Too many attempts/);
      expect((await limited.database.db.select().from(orders)).length).toBe(before);
      // The allowance is the registration's own; an order without a login spends only the guest allowance.
      const register = await limited.call('POST', '/api/auth/register', null, {
        name: 'Later',
        email: email(),
        password: 'password123',
      });
      expect(register.statusCode).toBe(429);
      expect((await limited.call('POST', '/api/orders/guest', null, guest)).statusCode).toBe(201);
    } finally {
      await limited.close();
    }
  });
});

describe('guest orders from one address', () => {
  it('60 racing guest orders that make logins: the registration allowance (20 an hour) is made, 40 get 429', async () => {
    const app = await createTestApp();
    try {
      const answers = await Promise.all(
        Array.from({ length: 60 }, () =>
          app.app.inject({
            method: 'POST',
            url: '/api/orders/guest',
            remoteAddress: '10.9.0.1',
            payload: { ...guest, email: email(), account: { password: 'password123' } },
          }),
        ),
      );
      const codes = answers.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 201)).toHaveLength(20);
      expect(codes.filter((c) => c === 429)).toHaveLength(40);
      const accounts = await app.database.db.select().from(users).where(eq(users.role, 'CUSTOMER'));
      expect(accounts).toHaveLength(20);
      expect(await app.database.db.select().from(orders)).toHaveLength(20);
      // Another address has its own allowance.
      const elsewhere = await app.app.inject({
        method: 'POST',
        url: '/api/orders/guest',
        remoteAddress: '10.9.0.2',
        payload: { ...guest, email: email(), account: { password: 'password123' } },
      });
      expect(elsewhere.statusCode).toBe(201);
    } finally {
      await app.close();
    }
  });

  it('limits guest orders without a login per address too (each alerts every ADMIN and OPS chat)', async () => {
    const app = await createTestApp({ limits: { guestOrderPerIp: { points: 3, duration: 60 } } });
    try {
      const place = () =>
        app.app
          .inject({ method: 'POST', url: '/api/orders/guest', remoteAddress: '10.9.1.1', payload: guest })
          .then((r) => r.statusCode);
      expect([await place(), await place(), await place(), await place()]).toEqual([201, 201, 201, 429]);
      // Signed-in customers and staff are not limited by it.
      const customer = await app.signIn('CUSTOMER');
      expect(
        (await app.call('POST', '/api/orders', customer, { site: 'Ruiru', sandType: 'coarse', trucks: 1 }))
          .statusCode,
      ).toBe(201);
    } finally {
      await app.close();
    }
  });
});

describe('signed-in customer orders', () => {
  it('places an order and lists it with its assignments', async () => {
    const customer = await t.signIn('CUSTOMER', { name: 'Wanjiku Njeri' });
    const placed = await t.call('POST', '/api/orders', customer, {
      site: 'Thika Landless',
      sandType: 'smooth',
      trucks: 3,
    });
    expect(placed.statusCode).toBe(201);
    const order = placed.json();
    expect(order).toMatchObject({
      status: 'AWAITING_PAYMENT',
      truckCount: 3,
      sandType: 'smooth',
      distanceSource: 'heuristic',
      accountRef: `MCH${order.id}`,
    });
    // A signed-in customer needs no payment token: the order is theirs.
    expect(order.paymentToken).toBeUndefined();
    const confirmed = await t.call('POST', `/api/orders/${order.id}/payment`, customer, {
      method: 'co-operative',
      reference: 'QWE123XYZ',
    });
    expect(confirmed.statusCode).toBe(200);

    const driver = await makeDriver(t.database.db, { name: 'Kamau Driver' });
    const truck = await makeTruck(t.database.db, { plate: 'KCX 123A', primaryDriverId: driver.id });
    await makeAssignment(t.database.db, { orderId: order.id, truckId: truck.id, driverId: driver.id });

    const mine = await t.call('GET', '/api/orders/my', customer);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual([
      expect.objectContaining({
        id: order.id,
        site: 'Thika Landless',
        status: 'PAYMENT_REVIEW',
        payment_status: 'SUBMITTED',
        sand_type: 'smooth',
        trucks: 3,
        per_truck: order.perTruck,
        total: order.total,
        distance_km: order.distanceKm,
        distance_source: 'heuristic',
        name: 'Wanjiku Njeri',
        email: customer.user.email,
        created_at: expect.any(String),
        accountRef: `MCH${order.id}`,
        paid: 0,
        balance: order.total,
        credit: 0,
        payments: [
          expect.objectContaining({
            method: 'Cooperative',
            reference: 'QWE123XYZ',
            verified: false,
            source: 'CUSTOMER',
            status: 'SUBMITTED',
            amount: null,
            payerName: null,
            payerPhone: null,
          }),
        ],
        assignments: [
          expect.objectContaining({
            truck_id: truck.id,
            plate: 'KCX 123A',
            tonnes: 20,
            status: 'SCHEDULED',
            driver: 'Kamau Driver',
          }),
        ],
      }),
    ]);
  });

  it('refuses anonymous callers (401) and other roles (403), and lists only the caller’s own orders', async () => {
    const owner = await t.signIn('CUSTOMER');
    const other = await t.signIn('CUSTOMER');
    const admin = await t.signIn('ADMIN');
    await t.call('POST', '/api/orders', owner, { site: 'Juja', sandType: 'coarse', trucks: 1 });
    const body = { site: 'Juja', sandType: 'coarse', trucks: 1 };
    expect((await t.call('POST', '/api/orders', null, body)).statusCode).toBe(401);
    expect((await t.call('POST', '/api/orders', admin, body)).statusCode).toBe(403);
    expect((await t.call('GET', '/api/orders/my', admin)).statusCode).toBe(403);
    expect((await t.call('GET', '/api/orders/my', other)).json()).toEqual([]);
  });

  it('answers a second Place order with the same Idempotency-Key with the first order, over REST and tRPC', async () => {
    const customer = await t.signIn('CUSTOMER');
    const body = { site: 'Kamakis, Ruiru', sandType: 'coarse', trucks: 1, distanceKm: 12 };
    const headers = { 'idempotency-key': `order-${unique('key')}` };
    const [first, second] = await Promise.all([
      t.call('POST', '/api/orders', customer, body, headers),
      t.call('POST', '/api/orders', customer, body, headers),
    ]);
    expect([first!.statusCode, second!.statusCode]).toEqual([201, 201]);
    expect(second!.json()).toEqual(first!.json());
    // The screen sends it over tRPC (one call, not batched): the same key answers the same order.
    const overTrpc = await t.app.inject({
      method: 'POST',
      url: '/trpc/orders.create',
      headers: { ...customer.headers, 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(body),
    });
    expect(overTrpc.statusCode).toBe(200);
    expect(overTrpc.json().result.data.id).toBe(first!.json().id);
    expect((await t.call('GET', '/api/orders/my', customer)).json()).toHaveLength(1);
    // Another key is another order.
    const another = await t.call('POST', '/api/orders', customer, body, { 'idempotency-key': unique('k2') });
    expect(another.json().id).not.toBe(first!.json().id);
    expect((await t.call('GET', '/api/orders/my', customer)).json()).toHaveLength(2);
  });

  it('answers an empty list for a customer without orders', async () => {
    const fresh = await t.signIn('CUSTOMER');
    const res = await t.call('GET', '/api/orders/my', fresh);
    expect(res.json()).toEqual([]);
    expect((await t.database.db.select().from(users).where(eq(users.id, fresh.user.id))).length).toBe(1);
  });
});

describe('one placeOrder() for guest, customer and admin orders', () => {
  it('stores the same cents for the same quote through all three entry points, and raises one order.created each', async () => {
    const app = await createTestApp();
    try {
      const admin = await app.signIn('ADMIN');
      const customer = await app.signIn('CUSTOMER');
      const load = { site: 'Ruiru', sandType: 'coarse', trucks: 2, distanceKm: 21 };
      const placed = [
        await app.call('POST', '/api/orders/guest', null, { ...guest, ...load }),
        await app.call('POST', '/api/orders', customer, load),
        await app.call('POST', '/api/admin/orders', admin, { name: 'Desk', phone: '0700111222', ...load }),
      ];
      const ids = placed.map((res) => {
        expect(res.statusCode).toBe(201);
        return res.json().id as number;
      });
      const rows = await app.database.db.select().from(orders).where(inArray(orders.id, ids));
      expect(rows.map((r) => [r.perTruckCents, r.totalCents])).toEqual([
        [3_400_000, 6_800_000],
        [3_400_000, 6_800_000],
        [3_400_000, 6_800_000],
      ]);
      for (const id of ids) expect(await orderCreatedAlerts(app, id)).toBe(1);

      // An override keeps its cents: 31,000.50 a truck is 3,100,050 cents, half-up once.
      const override = await app.call('POST', '/api/admin/orders', admin, {
        name: 'Desk',
        ...load,
        trucks: 3,
        perTruckOverride: 31000.5,
      });
      expect(override.json()).toMatchObject({ perTruck: 31000.5, total: 93001.5, truckCount: 3 });
      const [stored] = await app.database.db.select().from(orders).where(eq(orders.id, override.json().id));
      expect(stored).toMatchObject({
        perTruckCents: 3_100_050,
        totalCents: 9_300_150,
        priceOverridden: true,
      });
      expect(await orderCreatedAlerts(app, override.json().id)).toBe(1);

      // The relay turns each outbox row into one alert for each recipient.
      await app.jobs.drain();
      for (const id of [...ids, override.json().id]) {
        const deliveries = await app.database.db
          .select()
          .from(alertDeliveries)
          .where(eq(alertDeliveries.eventKey, `order.created:${id}`));
        expect(deliveries.map((d) => d.recipientId)).toEqual([admin.user.id]);
      }
    } finally {
      await app.close();
    }
  });

  it('rounds an override with cents the same way whoever places the order', async () => {
    const deps = t.deps;
    const request = { ip: '127.0.0.1', now: new Date() };
    const base = {
      phone: '0700000000',
      site: 'Ruiru',
      sandType: 'smooth' as const,
      trucks: 2,
      distanceKm: 12,
      dateNeeded: null,
      perTruckOverride: 31000.5,
    };
    const customer = await t.signIn('CUSTOMER');
    const admin = await t.signIn('ADMIN');
    const results = [
      await placeOrder(
        t.database.db,
        deps,
        { ...base, name: 'Guest', email: '', customerId: null, createdById: null },
        request,
      ),
      await placeOrder(
        t.database.db,
        deps,
        {
          ...base,
          name: 'Customer',
          email: customer.user.email,
          customerId: customer.user.id,
          createdById: null,
        },
        request,
      ),
      await placeOrder(
        t.database.db,
        deps,
        { ...base, name: 'Admin', email: '', customerId: null, createdById: admin.user.id },
        request,
      ),
    ];
    const rows = await t.database.db
      .select()
      .from(orders)
      .where(
        inArray(
          orders.id,
          results.map((r) => r.id),
        ),
      );
    expect(rows.map((r) => [r.perTruckCents, r.totalCents])).toEqual([
      [3_100_050, 6_200_100],
      [3_100_050, 6_200_100],
      [3_100_050, 6_200_100],
    ]);
    expect(results.map((r) => r.total)).toEqual([62001, 62001, 62001]);
  });
});

describeRoleMatrix('orders', () => t, [
  ['POST', '/api/orders', ['CUSTOMER']],
  ['GET', '/api/orders/my', ['CUSTOMER']],
]);

describe("the site's first point, set when the order is placed", () => {
  it('takes a town or estate the site names (gazetteer, 1,500 m fence); a site it cannot place has none', async () => {
    const customer = await t.signIn('CUSTOMER');
    const placed = await t.call('POST', '/api/orders', customer, {
      site: 'Plot 7, Ruiru bypass',
      sandType: 'coarse',
      trucks: 1,
    });
    expect(placed.statusCode).toBe(201);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, placed.json().id));
    expect(row).toMatchObject({
      siteLat: -1.1466,
      siteLng: 36.9609,
      siteRadiusM: 1500,
      siteSource: 'gazetteer',
    });
    expect(row!.siteSetAt).not.toBeNull();
    const listed = (await t.call('GET', '/api/admin/orders', await t.signIn('ADMIN')))
      .json()
      .find((o: { id: number }) => o.id === row!.id);
    expect(listed).toMatchObject({
      siteLat: -1.1466,
      siteLng: 36.9609,
      siteRadiusM: 1500,
      siteSource: 'gazetteer',
    });

    const nowhere = await t.call('POST', '/api/orders', customer, {
      site: 'Behind the big mugumo tree',
      sandType: 'coarse',
      trucks: 1,
      distanceKm: 14,
    });
    const [none] = await t.database.db.select().from(orders).where(eq(orders.id, nowhere.json().id));
    expect(none).toMatchObject({ siteLat: null, siteLng: null, siteRadiusM: null, siteSource: null });
  });

  it("takes the geocoder's point first (500 m fence), and the gazetteer's when the geocoder is down", async () => {
    const seen: string[] = [];
    let up = true;
    const geocoder = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.setHeader('content-type', 'application/json');
      if (!up) {
        res.statusCode = 503;
        return res.end('{}');
      }
      res.end(JSON.stringify([{ lat: '-1.15012', lon: '36.96234', display_name: 'Kimbo, Ruiru' }]));
    });
    await new Promise<void>((r) => geocoder.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(geocoder.address() as AddressInfo).port}/`;
    const app = await createTestApp({ settings: { geocoderUrl: url } });
    try {
      const admin = await app.signIn('ADMIN');
      const order = (site: string) =>
        app.call('POST', '/api/admin/orders', admin, { name: 'Kimbo Hardware', site, sandType: 'coarse' });
      const geocoded = await order('Kimbo, Ruiru');
      expect(geocoded.statusCode).toBe(201);
      const [row] = await app.database.db.select().from(orders).where(eq(orders.id, geocoded.json().id));
      expect(row).toMatchObject({
        siteLat: -1.15012,
        siteLng: 36.96234,
        siteRadiusM: 500,
        siteSource: 'geocoder',
      });
      expect(seen.some((u) => u.includes('Kimbo%2C+Ruiru'))).toBe(true);

      up = false;
      const fallback = await order('Toll station, Ruiru');
      expect(fallback.statusCode).toBe(201);
      const [back] = await app.database.db.select().from(orders).where(eq(orders.id, fallback.json().id));
      expect(back).toMatchObject({
        siteLat: -1.1466,
        siteLng: 36.9609,
        siteRadiusM: 1500,
        siteSource: 'gazetteer',
      });
    } finally {
      await app.close();
      await new Promise<void>((r) => geocoder.close(() => r()));
    }
  });

  it("is refined by the driver at the site (a looked-up point gives way; a customer's pin does not)", async () => {
    const db = t.database.db;
    const admin = await t.signIn('ADMIN');
    const driver = await makeDriver(db);
    const asDriver = await t.signIn('DRIVER', { driverId: driver.id });
    const at = { lat: -1.1503, lng: 36.9655 };
    const arriveWithFix = async (site: string, pin?: { lat: number; lng: number }) => {
      const placed = await t.call('POST', '/api/admin/orders', admin, {
        name: 'Site Owner',
        site,
        sandType: 'coarse',
      });
      const id = placed.json().id as number;
      await db
        .update(orders)
        .set({ status: 'RECEIVED', paymentStatus: 'CONFIRMED' })
        .where(eq(orders.id, id));
      if (pin)
        await db
          .update(orders)
          .set({ siteLat: pin.lat, siteLng: pin.lng, siteRadiusM: 150, siteSource: 'pin' })
          .where(eq(orders.id, id));
      const truck = await makeTruck(db, { primaryDriverId: driver.id });
      const load = await makeAssignment(db, {
        orderId: id,
        truckId: truck.id,
        driverId: driver.id,
        status: 'IN_TRANSIT',
      });
      await makeLatestPosition(db, { truckId: truck.id, ...at, fixTime: new Date() });
      const arrived = await t.call('PATCH', `/api/admin/assignments/${load.id}`, asDriver, {
        status: 'ARRIVED',
      });
      expect(arrived.statusCode, arrived.body).toBe(200);
      const [row] = await db.select().from(orders).where(eq(orders.id, id));
      return row!;
    };
    expect(await arriveWithFix('Next to Ruiru stadium')).toMatchObject({
      ...{ siteLat: at.lat, siteLng: at.lng },
      siteRadiusM: 150,
      siteSource: 'driver',
    });
    expect(await arriveWithFix('Ruiru, pinned plot', { lat: -1.149, lng: 36.961 })).toMatchObject({
      siteLat: -1.149,
      siteLng: 36.961,
      siteSource: 'pin',
    });
  });
});
