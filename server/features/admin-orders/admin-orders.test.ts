import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordDelivery } from '../../../core/loads/loads.service';
import { type DbOrTx, rows } from '../../../drizzle/db';
import { alertDeliveries, assignments, orders, outbox, stockTransactions } from '../../../drizzle/schema';
import {
  imageDataUrl,
  makeAssignment,
  makeDriver,
  makeOrder,
  makeStock,
  makeTruck,
} from '../../../test/factories';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/helpers';
import { describeRoleMatrix } from '../../../test/role-matrix';

const THURSDAY_NOON = new Date('2026-11-26T09:00:00Z'); // Thursday 12:00 in Nairobi

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => THURSDAY_NOON });
});
afterAll(() => t.close());

/** The order's delivery code, as the customer reads it out at the site. */
async function codeOf(db: DbOrTx, assignmentId: number): Promise<string> {
  const [row] = await db
    .select({ code: orders.deliveryCode })
    .from(assignments)
    .innerJoin(orders, eq(orders.id, assignments.orderId))
    .where(eq(assignments.id, assignmentId));
  return row!.code;
}

/** A delivery with its proof: a photo and the customer's code. */
async function deliver(app: TestApp, id: number, who: SignedIn, extra: Record<string, unknown> = {}) {
  return app.call('POST', `/api/admin/assignments/${id}/delivery`, who, {
    photoData: await imageDataUrl(),
    code: await codeOf(app.database.db, id),
    ...extra,
  });
}

async function stockLowAlerts(db: DbOrTx, day: string) {
  const rows = await db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(sql`${outbox.payload}->>'kind' = 'stock.low'`, sql`${outbox.payload}->>'day' = ${day}`));
  return rows.length;
}

describe('an order from payment to delivery', () => {
  it('runs an order from payment to delivery and moves stock, order status and the overview', async () => {
    // The overview sums the whole business: this journey has a database of its own.
    let now = THURSDAY_NOON;
    const j = await createTestApp({ now: () => now });
    try {
      const [admin, ops, customer] = [
        await j.signIn('ADMIN'),
        await j.signIn('OPS'),
        await j.signIn('CUSTOMER'),
      ];
      const driverA = await makeDriver(j.database.db, { name: 'Achieng Driver' });
      const driverB = await makeDriver(j.database.db, { name: 'Baraka Otieno' });
      const truck1 = await makeTruck(j.database.db, { plate: 'KCX 123A' });
      const truck2 = await makeTruck(j.database.db, { plate: 'KDA 222', capacityT: 19 });

      const receipt = await j.call('POST', '/api/admin/stock/receipt', ops, {
        truckId: truck1.id,
        trucks: 2.5,
        category: 'coarse',
        costPerTonne: 400,
      });
      // What a receipt stores is stock.test's subject; here it only has to put 50 t in the yard.
      expect(receipt.statusCode).toBe(201);
      expect((await j.call('GET', '/api/admin/stock', ops)).json().tonnes).toBe(50);

      const placed = (
        await j.call('POST', '/api/orders', customer, { site: 'Ruiru', sandType: 'coarse', trucks: 2 })
      ).json();
      await j.call('POST', `/api/orders/${placed.id}/payment`, customer, {
        method: 'Equity',
        reference: 'EQ-555',
      });
      const pending = await j.call('GET', '/api/admin/orders?assigned=false', admin);
      expect(pending.json().map((o: { id: number }) => o.id)).toContain(placed.id);

      const reject = await j.call('POST', `/api/admin/orders/${placed.id}/payment-review`, admin, {
        decision: 'reject',
      });
      expect(reject.statusCode).toBe(400);
      expect(reject.json()).toEqual({ error: 'Give a reason for rejecting the payment.' });
      const rejected = await j.call('POST', `/api/admin/orders/${placed.id}/payment-review`, admin, {
        decision: 'reject',
        note: 'Not received',
      });
      expect(rejected.json()).toEqual({ status: 'AWAITING_PAYMENT', paymentStatus: 'REJECTED' });
      await j.call('POST', `/api/orders/${placed.id}/payment`, customer, {
        method: 'Equity',
        reference: 'EQ-556',
      });
      const confirmed = await j.call('POST', `/api/admin/orders/${placed.id}/payment-review`, admin, {
        decision: 'confirm',
      });
      expect(confirmed.json()).toEqual({ status: 'RECEIVED', paymentStatus: 'CONFIRMED' });

      const noTruck = await j.call('POST', `/api/admin/orders/${placed.id}/assignments`, admin, {
        truckId: '',
        driverId: driverA.id,
      });
      expect(noTruck.json()).toEqual({ error: 'Select a truck.' });
      const first = await j.call('POST', `/api/admin/orders/${placed.id}/assignments`, admin, {
        truckId: truck1.id,
        driverId: driverA.id,
      });
      expect(first.statusCode).toBe(201);
      expect(first.json()).toMatchObject({
        truck_id: truck1.id,
        plate: 'KCX 123A',
        tonnes: 20,
        status: 'SCHEDULED',
        driver: 'Achieng Driver',
      });
      const second = (
        await j.call('POST', `/api/admin/orders/${placed.id}/assignments`, admin, {
          truckId: truck2.id,
          driverId: driverB.id,
          tonnes: '',
        })
      ).json();
      expect(
        (await j.call('GET', '/api/admin/orders?assigned=true', admin))
          .json()
          .map((o: { id: number }) => o.id),
      ).toContain(placed.id);
      expect((await j.call('GET', `/api/admin/orders/${placed.id}/assignments`, admin)).json()).toHaveLength(
        2,
      );

      const asDriverA = await j.signIn('DRIVER', { driverId: driverA.id });
      const asDriverB = await j.signIn('DRIVER', { driverId: driverB.id });
      const load = `/api/admin/assignments/${first.json().id}`;
      const notMine = await j.call('PATCH', load, asDriverB, { status: 'IN_TRANSIT' });
      expect(notMine.statusCode).toBe(403);
      expect((await j.call('PATCH', load, asDriverA, { status: 'CANCELLED' })).statusCode).toBe(403);
      expect((await j.call('PATCH', load, asDriverA, { status: 'IN_TRANSIT' })).json().status).toBe(
        'IN_TRANSIT',
      );
      const mineNow = (await j.call('GET', '/api/orders/my', customer))
        .json()
        .find((o: { id: number }) => o.id === placed.id);
      expect(mineNow.status).toBe('IN_TRANSIT');
      expect((await deliver(j, first.json().id, asDriverA)).json().status).toBe('DELIVERED');
      // Delivering twice takes stock out once.
      expect((await deliver(j, first.json().id, ops)).statusCode).toBe(200);
      expect((await j.call('PATCH', load, ops, { status: 'SCHEDULED' })).statusCode).toBe(409);
      expect((await j.call('GET', '/api/admin/stock', admin)).json().tonnes).toBe(30);
      await j.jobs.drain();
      const lowStock = await j.database.db
        .select()
        .from(alertDeliveries)
        .where(eq(alertDeliveries.eventKey, 'stock.low:yard@2026-11-26'));
      expect(lowStock.map((r) => r.recipientId).sort()).toEqual([admin.user.id, ops.user.id].sort());

      const overview = (await j.call('GET', '/api/admin/dashboard', admin)).json();
      expect(overview).toMatchObject({
        stock: 30,
        yardName: 'Juja Yard',
        pendingOrders: expect.any(Number),
        activeAssignments: 1,
        daily: { revenue: placed.perTruck, profit: placed.perTruck - 20000 },
        weekly: { revenue: placed.perTruck, profit: placed.perTruck - 20000 },
        expensesPerTruck: [{ truckId: truck1.id, plate: 'KCX 123A', amount: 20000 }],
        topDrivers: [{ driverId: driverA.id, name: 'Achieng Driver', tonnes: 20, revenue: placed.perTruck }],
      });

      await deliver(j, second.id, ops);
      const done = (await j.call('GET', '/api/orders/my', customer))
        .json()
        .find((o: { id: number }) => o.id === placed.id);
      expect(done.status).toBe('DELIVERED');
      const closed = await j.call('POST', `/api/admin/orders/${placed.id}/assignments`, admin, {
        truckId: truck1.id,
        driverId: driverA.id,
      });
      expect(closed.statusCode).toBe(409);

      // A day later the delivery is in the week, not today.
      now = new Date('2026-11-27T09:00:00Z');
      const tomorrow = (await j.call('GET', '/api/admin/dashboard', admin)).json();
      expect(tomorrow.daily).toEqual({ revenue: 0, profit: 0 });
      // The second truck carries 19 t: left blank, a load's tonnes are its truck's capacity.
      expect(second.tonnes).toBe(19);
      expect(tomorrow.weekly.revenue).toBe(placed.perTruck + (placed.perTruck * 19) / 20);
    } finally {
      await j.close();
    }
  });
});

describe('admin orders', () => {
  it('creates admin orders with a per-truck override, trucks defaulting to 1', async () => {
    const admin = await t.signIn('ADMIN');
    const ops = await t.signIn('OPS');
    const res = await t.call('POST', '/api/admin/orders', admin, {
      name: 'Phone Customer',
      phone: '0700123456',
      site: 'Kitengela',
      sandType: 'smooth',
      trucks: '',
      dateNeeded: '2026-12-02',
      perTruckOverride: 30000,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      status: 'AWAITING_PAYMENT',
      perTruck: 30000,
      total: 30000,
      truckCount: 1,
    });
    const bad = await t.call('POST', '/api/admin/orders', admin, {
      name: 'X',
      site: 'Y',
      sandType: 'coarse',
      perTruckOverride: -5,
    });
    expect(bad.json()).toEqual({ error: 'Per-truck price must be greater than zero.' });
    expect(
      (await t.call('POST', '/api/admin/orders', ops, { name: 'X', site: 'Y', sandType: 'coarse' }))
        .statusCode,
    ).toBe(403);
  });

  it('places an order for a known customer, listed in their orders', async () => {
    const admin = await t.signIn('ADMIN');
    const customer = await t.signIn('CUSTOMER');
    const res = await t.call('POST', '/api/admin/orders', admin, {
      name: customer.user.name,
      site: 'Juja',
      sandType: 'coarse',
      customerId: customer.user.id,
    });
    expect(res.statusCode).toBe(201);
    const mine = (await t.call('GET', '/api/orders/my', customer)).json();
    expect(mine.map((o: { id: number }) => o.id)).toEqual([res.json().id]);
  });

  it('answers admin orders and loads with their messages', async () => {
    const admin = await t.signIn('ADMIN');
    const cases: ['POST' | 'PATCH', string, unknown, number, string][] = [
      [
        'POST',
        '/api/admin/orders',
        { name: 'A', site: 'Ruiru', sandType: 'coarse', trucks: 21 },
        400,
        'Trucks must be between 1 and 20.',
      ],
      [
        'POST',
        '/api/admin/orders',
        { name: 'A', site: 'Ruiru', sandType: 'coarse', perTruckOverride: 0 },
        400,
        'Per-truck price must be greater than zero.',
      ],
      [
        'POST',
        '/api/admin/orders',
        { name: 'A', site: 'Ruiru', sandType: 'coarse', customerId: 99999 },
        400,
        'No customer with that ID exists.',
      ],
      [
        'POST',
        '/api/admin/orders/99999/assignments',
        { truckId: 'T1', driverId: 'D1' },
        404,
        'Order not found.',
      ],
      ['PATCH', '/api/admin/assignments/99999', { status: 'DELIVERED' }, 404, 'Assignment not found.'],
    ];
    for (const [method, url, payload, status, message] of cases) {
      const res = await t.call(method, url, admin, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(status);
      expect(res.json()).toEqual({ error: message });
    }

    const order = (
      await t.call('POST', '/api/admin/orders', admin, {
        name: 'Desk',
        phone: '0700111222',
        site: 'Juja',
        sandType: 'smooth',
      })
    ).json();
    expect(order).toMatchObject({ status: 'AWAITING_PAYMENT', truckCount: 1 });
    const truck = await makeTruck(t.database.db);
    const loadCases: [unknown, string][] = [
      [{ truckId: '', driverId: 'D1' }, 'Select a truck.'],
      [{ truckId: 'T1', driverId: '' }, 'Select a driver.'],
      [{ truckId: 'T1', driverId: 'D1', tonnes: 0 }, 'Tonnes must be greater than zero.'],
      [{ truckId: 'NOPE', driverId: 'D1' }, 'No truck with that ID exists.'],
      [{ truckId: truck.id, driverId: 'NOPE' }, 'No driver with that ID exists.'],
    ];
    for (const [payload, message] of loadCases) {
      const res = await t.call('POST', `/api/admin/orders/${order.id}/assignments`, admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ error: message });
    }
  });
});

describe('load capacity', () => {
  async function paidOrder(app: TestApp, trucks: number) {
    return makeOrder(app.database.db, { trucks, status: 'RECEIVED', paymentStatus: 'CONFIRMED' });
  }
  const schedule = (app: TestApp, admin: SignedIn, orderId: number, body: Record<string, unknown>) =>
    app.call('POST', `/api/admin/orders/${orderId}/assignments`, admin, body);

  it('20 racing loads of 20 t on a 2-truck order: exactly 2 scheduled, 18 refused with what remains', async () => {
    const admin = await t.signIn('ADMIN');
    const order = await paidOrder(t, 2);
    const truck = await makeTruck(t.database.db);
    const driver = await makeDriver(t.database.db);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        schedule(t, admin, order.id, { truckId: truck.id, driverId: driver.id, tonnes: 20 }),
      ),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(2);
    expect(codes.filter((c) => c === 409)).toHaveLength(18);
    for (const refused of answers.filter((r) => r.statusCode === 409))
      expect(refused.json()).toEqual({
        error: 'No tonnes remain to schedule on this order: all 40 t are scheduled.',
        remainingTonnes: 0,
      });
    const loads = (await t.call('GET', `/api/admin/orders/${order.id}/assignments`, admin)).json();
    expect(loads.map((l: { tonnes: number }) => l.tonnes)).toEqual([20, 20]);
  });

  it("refuses a load over its truck's capacity or over what remains on the order (409 saying how much)", async () => {
    const admin = await t.signIn('ADMIN');
    const order = await paidOrder(t, 2);
    const small = await makeTruck(t.database.db, { plate: 'KBZ 020T', capacityT: 20 });
    const big = await makeTruck(t.database.db, { plate: 'KCA 030T', capacityT: 30 });
    const driver = await makeDriver(t.database.db);
    const over = await schedule(t, admin, order.id, { truckId: small.id, driverId: driver.id, tonnes: 100 });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toEqual({
      error: 'KBZ 020T carries at most 20 t; schedule 20 t or less on it.',
      remainingTonnes: 40,
    });
    const first = await schedule(t, admin, order.id, { truckId: big.id, driverId: driver.id, tonnes: 25 });
    expect(first.statusCode).toBe(201);
    const tooMuch = await schedule(t, admin, order.id, {
      truckId: small.id,
      driverId: driver.id,
      tonnes: 20,
    });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json()).toEqual({
      error: 'Only 15 t remain to schedule on this order.',
      remainingTonnes: 15,
    });
    // Left blank, the load takes what remains when that is less than the truck's capacity.
    const rest = await schedule(t, admin, order.id, { truckId: small.id, driverId: driver.id, tonnes: '' });
    expect(rest.statusCode).toBe(201);
    expect(rest.json().tonnes).toBe(15);
    // A cancelled load gives its tonnes back to the order.
    await t.call('PATCH', `/api/admin/assignments/${first.json().id}`, admin, { status: 'CANCELLED' });
    const again = await schedule(t, admin, order.id, { truckId: big.id, driverId: driver.id, tonnes: 25 });
    expect(again.statusCode).toBe(201);
  });

  it('delivering everything never yields revenue above the order total nor stock beyond the scheduled tonnes', async () => {
    const app = await createTestApp({ now: () => THURSDAY_NOON });
    try {
      const admin = await app.signIn('ADMIN');
      await makeStock(app.database.db, { tonnes: 500 });
      const order = await paidOrder(app, 1);
      const truck = await makeTruck(app.database.db);
      const driver = await makeDriver(app.database.db);
      const tries = [6.67, 6.67, 6.66, 20, 100, 0.01];
      const scheduled: number[] = [];
      for (const tonnes of tries) {
        const res = await schedule(app, admin, order.id, { truckId: truck.id, driverId: driver.id, tonnes });
        if (res.statusCode === 201) scheduled.push(res.json().id);
        else expect(res.statusCode).toBe(409);
      }
      expect(scheduled).toHaveLength(3);
      for (const id of scheduled) expect((await deliver(app, id, admin)).statusCode).toBe(200);
      const [revenue] = await rows<{ cents: string }>(
        app.database.db,
        sql`select coalesce(sum(revenue_cents), 0) as cents from delivered_loads where order_id = ${order.id}`,
      );
      expect(Number(revenue!.cents)).toBe(order.totalCents);
      expect((await app.call('GET', '/api/admin/stock', admin)).json().tonnes).toBe(480);
    } finally {
      await app.close();
    }
  });

  it('schedules an unpaid order only when ADMIN confirms it, and the load records that', async () => {
    const admin = await t.signIn('ADMIN');
    const unpaid = await makeOrder(t.database.db, { trucks: 2 });
    const paid = await paidOrder(t, 1);
    const truck = await makeTruck(t.database.db);
    const driver = await makeDriver(t.database.db);
    const load = { truckId: truck.id, driverId: driver.id };
    const asked = await schedule(t, admin, unpaid.id, load);
    expect(asked.statusCode).toBe(409);
    expect(asked.json()).toEqual({
      error: "This order's payment is not confirmed yet. Confirming schedules the load before payment.",
      unpaid: true,
    });
    expect((await t.call('GET', `/api/admin/orders/${unpaid.id}/assignments`, admin)).json()).toEqual([]);
    const confirmed = await schedule(t, admin, unpaid.id, { ...load, confirmUnpaid: true });
    expect(confirmed.statusCode).toBe(201);
    expect(confirmed.json()).toMatchObject({ tonnes: 20, scheduledBeforePayment: true });
    const onPaid = await schedule(t, admin, paid.id, load);
    expect(onPaid.json()).toMatchObject({ scheduledBeforePayment: false });

    const listed = (await t.call('GET', '/api/admin/orders', admin)).json();
    const flags = (id: number) =>
      listed
        .find((o: { id: number }) => o.id === id)
        .assignments.map((a: { scheduledBeforePayment: boolean }) => a.scheduledBeforePayment);
    expect(flags(unpaid.id)).toEqual([true]);
    expect(flags(paid.id)).toEqual([false]);
    const loads = (await t.call('GET', `/api/admin/orders/${unpaid.id}/assignments`, admin)).json();
    expect(loads.map((a: { scheduledBeforePayment: boolean }) => a.scheduledBeforePayment)).toEqual([true]);
  });
});

describe('proof of delivery', () => {
  async function openLoad(app: TestApp) {
    const order = await makeOrder(app.database.db, { trucks: 2, status: 'RECEIVED' });
    const truck = await makeTruck(app.database.db);
    const driver = await makeDriver(app.database.db);
    const load = await makeAssignment(app.database.db, {
      orderId: order.id,
      truckId: truck.id,
      driverId: driver.id,
    });
    const asDriver = await app.signIn('DRIVER', { driverId: driver.id });
    return { order, load, asDriver };
  }

  it('a driver delivers only with a proof; ops may mark delivered by hand, recorded and flagged', async () => {
    const ops = await t.signIn('OPS');
    const { load, asDriver } = await openLoad(t);
    const byDriver = await t.call('PATCH', `/api/admin/assignments/${load.id}`, asDriver, {
      status: 'DELIVERED',
    });
    expect(byDriver.statusCode).toBe(409);
    expect(byDriver.json()).toEqual({
      error:
        "A load is marked delivered with a proof of delivery: a photo and the customer's delivery code, or the receiver's name.",
    });

    const byOps = await t.call('PATCH', `/api/admin/assignments/${load.id}`, ops, {
      status: 'DELIVERED',
      reason: 'Customer called: sand tipped, driver phone dead',
    });
    expect(byOps.statusCode).toBe(200);
    expect(byOps.json()).toMatchObject({ status: 'DELIVERED', proof: null, withoutProof: true });
    expect(byOps.json().deliveredAt).toBe(THURSDAY_NOON.toISOString());
    expect(byOps.json().history.at(-1)).toMatchObject({
      from: 'SCHEDULED',
      to: 'DELIVERED',
      source: 'manual',
      by: ops.user.name,
      reason: 'Customer called: sand tipped, driver phone dead',
      at: THURSDAY_NOON.toISOString(),
    });

    // Without a reason (or with only blanks) a load is not delivered by hand: the proof path is the rule.
    const { load: other } = await openLoad(t);
    for (const body of [{ status: 'DELIVERED' }, { status: 'DELIVERED', reason: '   ' }]) {
      const bare = await t.call('PATCH', `/api/admin/assignments/${other.id}`, ops, body);
      expect(bare.statusCode).toBe(400);
      expect(bare.json()).toEqual({
        error: 'Give a reason for marking the load delivered without a proof of delivery.',
      });
    }
    const [untouched] = await t.database.db.select().from(assignments).where(eq(assignments.id, other.id));
    expect(untouched!.status).toBe('SCHEDULED');
    const byAdmin = await t.call('PATCH', `/api/admin/assignments/${other.id}`, await t.signIn('ADMIN'), {
      status: 'DELIVERED',
      reason: 'Receiver signed the paper delivery note',
    });
    expect(byAdmin.json().history.at(-1).reason).toBe('Receiver signed the paper delivery note');
    const listed = (await t.call('GET', '/api/admin/orders', await t.signIn('ADMIN'))).json();
    const row = listed
      .flatMap((o: { assignments: Array<{ id: number; withoutProof?: boolean }> }) => o.assignments)
      .find((a: { id: number }) => a.id === other.id);
    expect(row.withoutProof).toBe(true);
  });

  it("takes the receiver's name instead of the code (flagged); refuses wrong codes up to a limit", async () => {
    const { load, asDriver } = await openLoad(t);
    const url = `/api/admin/assignments/${load.id}/delivery`;
    const noPhoto = await t.call('POST', url, asDriver, { code: '0000' });
    expect(noPhoto.statusCode).toBe(400);
    expect(noPhoto.json()).toEqual({ error: 'Take a photo of the delivered load.' });
    const nothing = await t.call('POST', url, asDriver, { photoData: await imageDataUrl() });
    expect(nothing.json()).toEqual({
      error: "Enter the customer's delivery code, or the receiver's name if they do not have it.",
    });

    const real = await codeOf(t.database.db, load.id);
    const wrong = real === '0000' ? '1111' : '0000';
    const answers = [];
    for (let i = 0; i < 5; i++)
      answers.push(await t.call('POST', url, asDriver, { photoData: await imageDataUrl(), code: wrong }));
    expect(answers.map((a) => a.statusCode)).toEqual([400, 400, 400, 400, 400]);
    expect(answers[0]!.json().error).toBe('That delivery code is wrong. 4 tries left.');
    expect(answers[3]!.json().error).toBe('That delivery code is wrong. 1 try left.');
    expect(answers[4]!.json().attemptsLeft).toBe(0);
    // Even the right code is refused now: only the receiver's name will do.
    const locked = await t.call('POST', url, asDriver, { photoData: await imageDataUrl(), code: real });
    expect(locked.statusCode).toBe(429);
    const [still] = await t.database.db.select().from(assignments).where(eq(assignments.id, load.id));
    expect(still!.status).toBe('SCHEDULED');

    const byName = await t.call('POST', url, asDriver, {
      photoData: await imageDataUrl(),
      receiverName: 'Mama Wanjiru',
    });
    expect(byName.statusCode).toBe(200);
    expect(byName.json()).toMatchObject({
      status: 'DELIVERED',
      withoutProof: false,
      proof: { method: 'receiver', receiverName: 'Mama Wanjiru', flagged: true },
    });
    expect(byName.json().proof.photoUrl).toMatch(/^\/api\/uploads\//);
  });
});

describe('low yard stock', () => {
  async function deliverable(app: TestApp) {
    const order = await makeOrder(app.database.db, { trucks: 3, status: 'RECEIVED' });
    const truck = await makeTruck(app.database.db);
    const driver = await makeDriver(app.database.db);
    const load = () =>
      makeAssignment(app.database.db, { orderId: order.id, truckId: truck.id, driverId: driver.id });
    return { order, load };
  }

  it('raises stock.low with the delivery that takes the yard under the threshold, once a day', async () => {
    const app = await createTestApp({
      now: () => THURSDAY_NOON,
      settings: { alerts: { stockLowTonnes: 50, idleMinutes: 30 } },
    });
    try {
      const ops = await app.signIn('OPS');
      await makeStock(app.database.db, { tonnes: 80 });
      const { load } = await deliverable(app);
      const [a, b, c] = [await load(), await load(), await load()];
      await deliver(app, a.id, ops);
      expect(await stockLowAlerts(app.database.db, '2026-11-26')).toBe(0); // 60 t: not under 50 yet
      await deliver(app, b.id, ops);
      expect(await stockLowAlerts(app.database.db, '2026-11-26')).toBe(1); // 40 t
      // Delivering the same load again takes no stock and raises nothing.
      await deliver(app, b.id, ops);
      expect(await stockLowAlerts(app.database.db, '2026-11-26')).toBe(1);
      await deliver(app, c.id, ops);
      await app.jobs.drain();
      const deliveries = await app.database.db
        .select()
        .from(alertDeliveries)
        .where(eq(alertDeliveries.eventKey, 'stock.low:yard@2026-11-26'));
      expect(deliveries.map((d) => d.recipientId)).toEqual([ops.user.id]);
    } finally {
      await app.close();
    }
  });

  it('commits the alert with the delivery or not at all', async () => {
    const app = await createTestApp({ now: () => THURSDAY_NOON });
    try {
      const ops = await app.signIn('OPS');
      const { load } = await deliverable(app);
      const a = await load();
      const rolledBack = new Error('rolled back');
      await expect(
        app.database.db.transaction(async (tx) => {
          const moved = await recordDelivery(
            tx,
            app.deps.settings,
            ops.user,
            { id: a.id, photoData: await imageDataUrl(), code: await codeOf(tx, a.id) },
            THURSDAY_NOON,
          );
          expect(moved.status).toBe('DELIVERED');
          expect(await stockLowAlerts(tx, '2026-11-26')).toBe(1);
          throw rolledBack;
        }),
      ).rejects.toBe(rolledBack);
      expect(await stockLowAlerts(app.database.db, '2026-11-26')).toBe(0);
      const taken = await app.database.db
        .select()
        .from(stockTransactions)
        .where(eq(stockTransactions.assignmentId, a.id));
      expect(taken).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describeRoleMatrix('admin orders and loads', () => t, [
  ['GET', '/api/admin/orders', ['ADMIN']],
  ['GET', '/api/admin/orders?assigned=true', ['ADMIN']],
  ['POST', '/api/admin/orders', ['ADMIN']],
  ['GET', '/api/admin/orders/1/assignments', ['ADMIN']],
  ['POST', '/api/admin/orders/1/assignments', ['ADMIN']],
  ['PATCH', '/api/admin/assignments/1', ['ADMIN', 'OPS', 'DRIVER']],
  ['POST', '/api/admin/assignments/1/delivery', ['ADMIN', 'OPS', 'DRIVER']],
]);
