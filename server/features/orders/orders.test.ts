import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertDeliveries,
  assignments,
  drivers,
  orders,
  payments,
  trucks,
  users,
} from '../../../drizzle/schema';
import { createTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

const guest = {
  name: 'Mwangi Builders',
  phone: '0722 111 222',
  email: 'site@mwangi.co.ke',
  site: 'Membley estate, Ruiru',
  sandType: 'coarse',
  trucks: 2,
  dateNeeded: '2026-12-01',
};

describe('POST /api/orders/guest', () => {
  it('takes a guest order at AWAITING_PAYMENT with the quote', async () => {
    const res = await post('/api/orders/guest', guest);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      status: 'AWAITING_PAYMENT',
      perTruck: 32000,
      total: 64000,
      distanceKm: expect.any(Number),
      distanceSource: 'heuristic',
      truckCount: 2,
      sandType: 'coarse',
    });
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, res.json().id));
    expect(row).toMatchObject({
      paymentStatus: 'PENDING',
      customerId: null,
      totalCents: 6_400_000,
      dateNeeded: '2026-12-01',
    });
  });

  it('creates the portal login in the same step and signs the customer in', async () => {
    const res = await post('/api/orders/guest', {
      ...guest,
      email: 'portal@mwangi.co.ke',
      distanceKm: 30,
      account: { password: '  portal-pass  ', confirmPassword: 'portal-pass' },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      perTruck: 35000,
      distanceSource: 'manual',
      account: { user: { role: 'CUSTOMER', email: 'portal@mwangi.co.ke' } },
    });
    const mine = await t.app.inject({
      url: '/api/orders/my',
      headers: { authorization: `Bearer ${body.account.token}` },
    });
    expect(mine.json().map((o: { id: number }) => o.id)).toEqual([body.id]);
  });

  it('refuses a portal login for an email that already has an account, and stores nothing', async () => {
    await post('/api/auth/register', {
      name: 'Existing',
      email: 'taken@mwangi.co.ke',
      password: 'password123',
    });
    const before = (await t.database.db.select().from(orders)).length;
    const res = await post('/api/orders/guest', {
      ...guest,
      email: 'TAKEN@mwangi.co.ke',
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
    const res = await post('/api/orders/guest', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: message });
  });

  it('queues an order alert for ADMIN and OPS', async () => {
    await t.signIn('ADMIN');
    const res = await post('/api/orders/guest', guest);
    await t.jobs.drain();
    const rows = await t.database.db
      .select()
      .from(alertDeliveries)
      .where(eq(alertDeliveries.eventKey, `order.created:${res.json().id}`));
    expect(rows.length).toBeGreaterThan(0);
  });
});

describe('signed-in customer orders and payment confirmation', () => {
  it('places an order, confirms payment once per reference, and lists it with assignments', async () => {
    const customer = await t.signIn('CUSTOMER', { name: 'Wanjiku Njeri' });
    const placed = await post(
      '/api/orders',
      { site: 'Thika Landless', sandType: 'smooth', trucks: 3 },
      customer.headers,
    );
    expect(placed.statusCode).toBe(201);
    const order = placed.json();
    expect(order).toMatchObject({
      status: 'AWAITING_PAYMENT',
      truckCount: 3,
      sandType: 'smooth',
      distanceSource: 'heuristic',
    });

    const missingRef = await post(
      `/api/orders/${order.id}/payment`,
      { method: 'Equity', reference: ' ' },
      customer.headers,
    );
    expect(missingRef.statusCode).toBe(400);
    expect(missingRef.json()).toEqual({ error: 'Payment reference is required.' });
    const badMethod = await post(
      `/api/orders/${order.id}/payment`,
      { method: 'Barclays', reference: 'X1' },
      customer.headers,
    );
    expect(badMethod.statusCode).toBe(400);

    const confirm = () =>
      post(
        `/api/orders/${order.id}/payment`,
        { method: 'co-operative', reference: 'QWE123XYZ', message: 'Paid via app' },
        customer.headers,
      );
    const first = await confirm();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ status: 'PAYMENT_REVIEW', paymentStatus: 'SUBMITTED' });
    expect((await confirm()).json()).toEqual({ status: 'PAYMENT_REVIEW', paymentStatus: 'SUBMITTED' });
    const stored = await t.database.db.select().from(payments).where(eq(payments.orderId, order.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ method: 'Cooperative', reference: 'QWE123XYZ', status: 'SUBMITTED' });

    await t.database.db.insert(drivers).values({ id: 'DRV-ORD', name: 'Kamau Driver' });
    await t.database.db
      .insert(trucks)
      .values({ id: 'TRK-ORD', plate: 'KCX 123A', primaryDriverId: 'DRV-ORD' });
    await t.database.db
      .insert(assignments)
      .values({ orderId: order.id, truckId: 'TRK-ORD', driverId: 'DRV-ORD', tonnes: 20 });

    const mine = await t.app.inject({ url: '/api/orders/my', headers: customer.headers });
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
        assignments: [
          expect.objectContaining({
            truck_id: 'TRK-ORD',
            plate: 'KCX 123A',
            tonnes: 20,
            status: 'SCHEDULED',
            driver: 'Kamau Driver',
          }),
        ],
      }),
    ]);
  });

  it("refuses another customer's confirmation (403), unknown orders (404) and non-customers (401/403)", async () => {
    const owner = await t.signIn('CUSTOMER');
    const other = await t.signIn('CUSTOMER');
    const admin = await t.signIn('ADMIN');
    const order = (
      await post('/api/orders', { site: 'Juja', sandType: 'coarse', trucks: 1 }, owner.headers)
    ).json();
    const stranger = await post(
      `/api/orders/${order.id}/payment`,
      { method: 'KCB', reference: 'ABC' },
      other.headers,
    );
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json()).toEqual({ error: 'This order belongs to another customer.' });
    expect(
      (await post('/api/orders/999999/payment', { method: 'KCB', reference: 'ABC' }, owner.headers))
        .statusCode,
    ).toBe(404);
    expect(
      (await post(`/api/orders/${order.id}/payment`, { method: 'KCB', reference: 'ABC' })).statusCode,
    ).toBe(401);
    expect((await post('/api/orders', { site: 'Juja', sandType: 'coarse', trucks: 1 })).statusCode).toBe(401);
    expect(
      (await post('/api/orders', { site: 'Juja', sandType: 'coarse', trucks: 1 }, admin.headers)).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ url: '/api/orders/my', headers: admin.headers })).statusCode).toBe(403);
    const otherList = await t.app.inject({ url: '/api/orders/my', headers: other.headers });
    expect(otherList.json()).toEqual([]);
  });

  it('answers an empty list for a customer without orders, and never another customer’s', async () => {
    const fresh = await t.signIn('CUSTOMER');
    const res = await t.app.inject({ url: '/api/orders/my', headers: fresh.headers });
    expect(res.json()).toEqual([]);
    expect((await t.database.db.select().from(users).where(eq(users.id, fresh.user.id))).length).toBe(1);
  });
});
