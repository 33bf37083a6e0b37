/**
 * The action log for every write (issue 25), generated from the procedure list: every mutation procedure
 * must have a scenario here, and its scenario must leave an entry naming who (user, role), what (entity,
 * id, changes) and from where (IP, user agent). A new mutation without a scenario fails the first test;
 * one whose use case forgets `recordChange` fails its own.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireActivity } from '../core/activity/activity.service';
import {
  activityLog,
  conversations,
  fuelAnomalies,
  invoices,
  passwordResets,
  payments,
  users,
} from '../drizzle/schema';
import {
  imageDataUrl,
  makeAssignment,
  makeCost,
  makeDriver,
  makeFuelLog,
  makeOrder,
  makeStock,
  makeTruck,
  unique,
} from '../test/factories';
import { fakeDaraja } from '../test/fake-daraja';
import { createTestApp, type SignedIn, type TestApp, testSettings } from '../test/helpers';
import { procedureDefs } from './rest';

const SECRET = 'test-callback-secret-0123456789';
const KEYS = {
  consumerKey: 'fake-consumer-key',
  consumerSecret: 'fake-consumer-secret',
  shortcode: '174379',
  passkey: 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919',
};
const daraja = fakeDaraja({ ...KEYS, deliver: async () => {} });
const AGENT = 'Mozilla/5.0 (Linux; Android 13) activity-test';

let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  const url = await daraja.start();
  t = await createTestApp({
    settings: {
      publicUrl: 'https://mchanga.example',
      mpesa: { baseUrl: url, ...KEYS, callbackSecret: SECRET, validateAccount: false, callbackIps: [] },
      // WhatsApp on (nothing answers there: sends are recorded, not delivered), so ops' reply has a rail.
      whatsapp: {
        ...testSettings().whatsapp,
        phoneNumberId: '106540352242922',
        accessToken: 'activity-test-token',
        graphUrl: 'http://127.0.0.1:9/v23.0',
      },
    },
  });
  admin = await t.signIn('ADMIN');
});
afterAll(async () => {
  await t?.close();
  await daraja.stop();
});

interface Call {
  who: SignedIn | null;
  /** The procedure's input (path parameters included); the REST path is filled from it. */
  body?: Record<string, unknown>;
  /** The entry's action when it is not the procedure (sign-in). */
  action?: string;
  entity: string;
}

/** A signed-in customer with an order of their own. */
async function customerWithOrder(over: Parameters<typeof makeOrder>[1] = {}) {
  const customer = await t.signIn('CUSTOMER');
  const order = await makeOrder(t.database.db, { customerId: customer.user.id, ...over });
  return { customer, order };
}

/** An order ops confirmed as paid (its sale invoice issued). */
async function paidOrder() {
  const { order } = await customerWithOrder();
  const res = await t.call('POST', `/api/admin/orders/${order.id}/payment-review`, admin, {
    decision: 'confirm',
    reference: unique('QK'),
    method: 'M-Pesa',
  });
  expect(res.statusCode, res.body).toBe(200);
  return order;
}

async function flaggedCost() {
  const truck = await makeTruck(t.database.db);
  const first = await makeCost(t.database.db, { truckId: truck.id });
  return makeCost(t.database.db, { truckId: truck.id, isDuplicate: true, duplicateOf: first.id });
}

async function loadOn(status: 'SCHEDULED' | 'IN_TRANSIT') {
  const truck = await makeTruck(t.database.db);
  const driver = await makeDriver(t.database.db);
  const order = await makeOrder(t.database.db, { status: 'RECEIVED', paymentStatus: 'CONFIRMED' });
  return makeAssignment(t.database.db, { orderId: order.id, truckId: truck.id, driverId: driver.id, status });
}

/** One scenario per mutation procedure: a call that writes, as a user allowed to make it. */
const SCENARIOS: Record<string, () => Promise<Call>> = {
  'auth.login': async () => {
    const who = await t.signIn('OPS');
    return {
      who: null,
      body: { email: who.user.email, password: 'password123' },
      action: 'auth.signIn',
      entity: 'user',
    };
  },
  'auth.register': async () => ({
    who: null,
    body: {
      name: 'Otieno Hardware',
      email: `${unique('reg').toLowerCase()}@example.co.ke`,
      phone: '0711222333',
      password: 'a-long-passphrase',
    },
    entity: 'user',
  }),
  'auth.setLanguage': async () => ({ who: await t.signIn('FUEL'), body: { language: 'sw' }, entity: 'user' }),
  'auth.logout': async () => ({ who: await t.signIn('DRIVER'), action: 'auth.signOut', entity: 'user' }),
  'auth.logoutAll': async () => ({ who: await t.signIn('OPS'), entity: 'user' }),
  'auth.changePassword': async () => ({
    who: await t.signIn('CUSTOMER'),
    body: { currentPassword: 'password123', newPassword: 'another-long-passphrase' },
    entity: 'user',
  }),
  'orders.create': async () => ({
    who: await t.signIn('CUSTOMER'),
    body: { site: 'Thika, Makongeni', sandType: 'smooth', trucks: 1, distanceKm: 20 },
    entity: 'order',
  }),
  'orders.confirmPayment': async () => {
    const { customer, order } = await customerWithOrder();
    return {
      who: customer,
      body: { id: order.id, method: 'Equity', reference: unique('EQ') },
      entity: 'order',
    };
  },
  'mpesa.stkPush': async () => {
    const { customer, order } = await customerWithOrder();
    return { who: customer, body: { id: order.id, phone: '0712345678' }, entity: 'order' };
  },
  'tracking.setSite': async () => {
    const { customer, order } = await customerWithOrder();
    return { who: customer, body: { id: order.id, lat: -1.1319, lng: 36.9784 }, entity: 'order' };
  },
  'driver.updateProfile': async () => ({
    who: await t.signIn('DRIVER'),
    body: { name: 'Peter Kamau', email: 'peter.kamau@example.co.ke', phone: '0712345678' },
    entity: 'driver',
  }),
  'fuel.create': async () => {
    const truck = await makeTruck(t.database.db);
    return {
      who: await t.signIn('FUEL'),
      body: { truckId: truck.id, litres: 120.5, odometer: 48210, cost: 20485, note: 'Rubis Juja' },
      entity: 'fuel',
    };
  },
  'fuel.anomalies.review': async () => {
    const truck = await makeTruck(t.database.db);
    const log = await makeFuelLog(t.database.db, { truckId: truck.id, capturedAt: new Date() });
    const [anomaly] = await t.database.db
      .insert(fuelAnomalies)
      .values({ fuelLogId: log.id, truckId: truck.id, kind: 'ODOMETER_BACKWARDS', detail: 'Back 120 km' })
      .returning();
    return {
      who: await t.signIn('OPS'),
      body: { id: anomaly!.id, decision: 'dismissed', reason: 'Odometer replaced.' },
      entity: 'fuelAnomaly',
    };
  },
  'admin.users.create': async () => ({
    who: admin,
    body: {
      name: 'Grace Wambui',
      email: `${unique('ops').toLowerCase()}@mchanga.co.ke`,
      phone: '0733000222',
      password: 'a-long-passphrase',
      role: 'OPS',
    },
    entity: 'user',
  }),
  'admin.users.disable': async () => ({
    who: admin,
    body: { id: (await t.signIn('OPS')).user.id },
    entity: 'user',
  }),
  'admin.users.enable': async () => {
    const ops = await t.signIn('OPS');
    await t.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, ops.user.id));
    return { who: admin, body: { id: ops.user.id }, entity: 'user' };
  },
  'admin.orders.create': async () => ({
    who: admin,
    body: {
      name: 'Wanjiru Builders',
      phone: '0722000111',
      site: 'Ruiru, Kamakis',
      sandType: 'coarse',
      trucks: 2,
      perTruckOverride: 31000,
    },
    entity: 'order',
  }),
  'admin.orders.addAssignment': async () => {
    const truck = await makeTruck(t.database.db);
    const driver = await makeDriver(t.database.db);
    const order = await makeOrder(t.database.db);
    return {
      who: admin,
      body: { id: order.id, truckId: truck.id, driverId: driver.id, tonnes: 20, confirmUnpaid: true },
      entity: 'load',
    };
  },
  'admin.orders.reviewPayment': async () => {
    const { order } = await customerWithOrder();
    return {
      who: await t.signIn('ADMIN'),
      body: { id: order.id, decision: 'confirm', reference: unique('QK'), method: 'M-Pesa' },
      entity: 'order',
    };
  },
  'admin.orders.setAssignmentStatus': async () => ({
    who: await t.signIn('OPS'),
    body: { id: (await loadOn('SCHEDULED')).id, status: 'IN_TRANSIT' },
    entity: 'load',
  }),
  'admin.orders.recordDelivery': async () => ({
    who: await t.signIn('OPS'),
    body: {
      id: (await loadOn('IN_TRANSIT')).id,
      photoData: await imageDataUrl(),
      receiverName: 'John Mwangi',
    },
    entity: 'load',
  }),
  'admin.trucks.create': async () => ({
    who: admin,
    body: { id: unique('T-'), plate: `KDA ${unique().slice(0, 3)}A`, capacityT: 20, axles: 3 },
    entity: 'truck',
  }),
  'admin.trucks.update': async () => ({
    who: admin,
    body: { id: (await makeTruck(t.database.db)).id, capacityT: 18 },
    entity: 'truck',
  }),
  'admin.trucks.setGrossLimit': async () => ({
    who: admin,
    body: { axles: 3, grossT: 25 },
    entity: 'grossLimit',
  }),
  'admin.drivers.create': async () => ({
    who: admin,
    body: { id: unique('DRV-'), name: 'Peter Kamau', phone: '0712345678' },
    entity: 'driver',
  }),
  'admin.drivers.update': async () => ({
    who: admin,
    body: { id: (await makeDriver(t.database.db)).id, name: 'Peter Kamau', email: null, phone: '0712345678' },
    entity: 'driver',
  }),
  'admin.stock.receipt': async () => ({
    who: await t.signIn('OPS'),
    body: { truckId: (await makeTruck(t.database.db)).id, trucks: 2, category: 'smooth', costPerTonne: 850 },
    entity: 'stock',
  }),
  'admin.stock.updateNote': async () => ({
    who: admin,
    body: { id: (await makeStock(t.database.db, { tonnes: 40 })).id, reason: 'Mwea quarry, ticket 5521' },
    entity: 'stock',
  }),
  'admin.costs.create': async () => ({
    who: await t.signIn('OPS'),
    body: { truckId: (await makeTruck(t.database.db)).id, type: 'REPAIR', amount: 7250, description: 'Tyre' },
    entity: 'cost',
  }),
  'admin.costs.update': async () => {
    const truck = await makeTruck(t.database.db);
    const cost = await makeCost(t.database.db, { truckId: truck.id });
    return {
      who: admin,
      body: { id: cost.id, truckId: truck.id, type: 'REPAIR', amount: 7500, description: 'Tyre replaced' },
      entity: 'cost',
    };
  },
  'admin.audit.review': async () => ({
    who: admin,
    body: { entity: 'cost', id: (await flaggedCost()).id, note: 'Both genuine.' },
    entity: 'cost',
  }),
  'admin.audit.void': async () => ({
    who: admin,
    body: { entity: 'cost', id: (await flaggedCost()).id, reason: 'Entered twice.' },
    entity: 'cost',
  }),
  'admin.messaging.takeover': async () => ({
    who: await t.signIn('OPS'),
    body: { id: (await conversation()).id, on: true },
    entity: 'conversation',
  }),
  'admin.messaging.reply': async () => ({
    who: await t.signIn('OPS'),
    body: { id: (await conversation()).id, text: 'The truck leaves at 2 pm.' },
    entity: 'conversation',
  }),
  'admin.notifications.update': async () => ({
    who: admin,
    body: { id: (await t.signIn('OPS')).user.id, telegramChatId: '-1001234567890' },
    entity: 'user',
  }),
  'admin.ai.refresh': async () => ({ who: admin, entity: 'insights' }),
  'admin.ai.runBriefing': async () => ({ who: admin, entity: 'article' }),
  'admin.queues.session': async () => ({ who: admin, entity: 'queueDashboard' }),
  'admin.payments.match': async () => {
    const order = await makeOrder(t.database.db);
    const [waiting] = await t.database.db
      .insert(payments)
      .values({ method: 'M-Pesa', reference: unique('RKL'), source: 'MPESA_C2B', amountCents: 6_400_000 })
      .returning();
    return { who: await t.signIn('OPS'), body: { id: waiting!.id, orderId: order.id }, entity: 'payment' };
  },
  'admin.invoices.sendAgain': async () => {
    const order = await paidOrder();
    const [sale] = await t.database.db
      .update(invoices)
      .set({ status: 'failed' })
      .where(eq(invoices.orderId, order.id))
      .returning();
    return { who: admin, body: { id: sale!.id }, entity: 'invoice' };
  },
  'admin.invoices.creditNote': async () => ({
    who: admin,
    body: { id: (await paidOrder()).id, amount: 16000, reason: '06', note: 'One load not delivered' },
    entity: 'invoice',
  }),
};

/** A customer on credit terms (issue 24). */
async function accountCustomer() {
  const customer = await t.signIn('CUSTOMER');
  const res = await t.call('PUT', `/api/admin/customers/${customer.user.id}/account`, admin, {
    creditLimit: 500000,
    termsDays: 30,
  });
  expect(res.statusCode, res.body).toBe(200);
  return customer;
}

Object.assign(SCENARIOS, {
  'admin.accounts.put': async () => ({
    who: admin,
    body: { id: (await t.signIn('CUSTOMER')).user.id, creditLimit: 250000, termsDays: 14 },
    entity: 'customerAccount',
  }),
  'admin.accounts.recordPayment': async () => ({
    who: admin,
    body: { id: (await accountCustomer()).user.id, amount: 40000, method: 'Equity', reference: unique('EQ') },
    entity: 'payment',
  }),
  'admin.accounts.reversePayment': async () => {
    const customer = await accountCustomer();
    const paid = await t.call('POST', `/api/admin/customers/${customer.user.id}/account/payments`, admin, {
      amount: 40000,
      method: 'Equity',
      reference: unique('EQ'),
    });
    expect(paid.statusCode, paid.body).toBe(201);
    return { who: admin, body: { id: paid.json().id, reason: 'Cheque returned unpaid' }, entity: 'payment' };
  },
  'admin.accounts.creditNote': async () => {
    const customer = await accountCustomer();
    const truck = await makeTruck(t.database.db);
    const driver = await makeDriver(t.database.db);
    const order = await makeOrder(t.database.db, { customerId: customer.user.id });
    const load = await t.call('POST', `/api/admin/orders/${order.id}/assignments`, admin, {
      truckId: truck.id,
      driverId: driver.id,
    });
    expect(load.statusCode, load.body).toBe(201);
    for (const status of ['IN_TRANSIT', 'ARRIVED', 'DELIVERED']) {
      const moved = await t.call('PATCH', `/api/admin/assignments/${load.json().id}`, admin, {
        status,
        reason: 'Receiver signed the paper note',
      });
      expect(moved.statusCode, moved.body).toBe(200);
    }
    const [sale] = await t.database.db
      .select()
      .from(invoices)
      .where(eq(invoices.assignmentId, load.json().id));
    return { who: admin, body: { id: sale!.id, amount: 2000, reason: '01' }, entity: 'invoice' };
  },
  'admin.users.resetPassword': async () => ({
    who: admin,
    body: { id: (await t.signIn('DRIVER')).user.id },
    entity: 'user',
  }),
  'auth.confirmPasswordReset': async () => {
    const customer = await t.signIn('CUSTOMER');
    const token = randomBytes(32).toString('base64url');
    await t.database.db.insert(passwordResets).values({
      userId: customer.user.id,
      tokenHash: createHash('sha256').update(token).digest('hex'),
      expiresAt: new Date(Date.now() + 10 * 60_000),
      sentAt: new Date(),
    });
    return {
      who: null,
      body: { token, newPassword: 'a-long-passphrase' },
      action: 'auth.passwordReset',
      entity: 'user',
    };
  },
} satisfies Record<string, () => Promise<Call>>);

/** A customer's WhatsApp conversation inside its 24-hour window (issue 29). */
async function conversation() {
  const [row] = await t.database.db
    .insert(conversations)
    .values({ phone: `2547${String(Date.now()).slice(-8)}`, lastInboundAt: new Date() })
    .returning();
  return row!;
}

/** Mutations that are no signed-in user's write, and why. */
const NOT_LOGGED: Record<string, string> = {
  'orders.createGuest': 'a guest, not a signed-in user (the order itself records the contact)',
  'chatbot.ask': 'a question: it writes nothing',
  'auth.requestPasswordReset':
    'anonymous, and answers the same for any address; the reset is an entry when the link is used',
};

const mutations = Object.entries(procedureDefs())
  .filter(([, p]) => p._def.type === 'mutation')
  .map(([path, p]) => ({ path, rest: p._def.meta?.rest }));

function urlOf(path: string, body: Record<string, unknown> = {}) {
  return path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(body[name])));
}

async function lastId() {
  const [row] = await t.database.db
    .select({ id: activityLog.id })
    .from(activityLog)
    .orderBy(desc(activityLog.id))
    .limit(1);
  return row?.id ?? 0;
}

describe('the action log covers every mutation (generated from the procedure list)', () => {
  it('every mutation procedure has a scenario here, or a reason it is no signed-in write', () => {
    const missing = mutations.map((m) => m.path).filter((p) => !(p in SCENARIOS) && !(p in NOT_LOGGED));
    expect(missing, 'add a scenario to SCENARIOS and record the write with recordChange').toEqual([]);
    const stale = Object.keys(SCENARIOS).filter((p) => !mutations.some((m) => m.path === p));
    expect(stale).toEqual([]);
  });

  it.each(mutations.filter((m) => m.path in SCENARIOS))(
    '$path writes its entry in the log',
    async ({ path, rest }) => {
      const call = await SCENARIOS[path]!();
      expect(rest, `${path} has no REST path`).toBeDefined();
      const before = await lastId();
      const res = await t.call(
        rest!.method,
        urlOf(rest!.path, call.body),
        call.who,
        rest!.method === 'GET' ? undefined : (call.body ?? {}),
        { 'user-agent': AGENT },
      );
      expect(res.statusCode, `${path}: ${res.body}`).toBeLessThan(300);
      const entries = await t.database.db
        .select()
        .from(activityLog)
        .where(gt(activityLog.id, before))
        .orderBy(activityLog.id);
      const entry = entries.find((e) => e.action === (call.action ?? path));
      expect(entry, `${path} wrote no entry: ${JSON.stringify(entries)}`).toBeDefined();
      expect(entry!.entity).toBe(call.entity);
      expect(entry!.userId).toEqual(expect.any(Number));
      if (call.who) {
        expect(entry!.userId).toBe(call.who.user.id);
        expect(entry!.role).toBe(call.who.user.role);
        expect(entry!.userName).toBe(call.who.user.name);
      }
      expect(entry!.ip).toBe('127.0.0.1');
      expect(entry!.userAgent).toBe(AGENT);
      const text = JSON.stringify(entries.map((e) => e.changes));
      // Secrets never reach the log: passwords, their hashes, tokens.
      for (const secret of ['password123', 'a-long-passphrase', 'another-long-passphrase', '$argon2'])
        expect(text).not.toContain(secret);
    },
  );
});

describe('what an entry holds', () => {
  it('an edit records the changed fields before → after, and nothing else', async () => {
    const truck = await makeTruck(t.database.db);
    const cost = await makeCost(t.database.db, {
      truckId: truck.id,
      amountCents: 500_000,
      description: 'Tyre',
    });
    const res = await t.call('PATCH', `/api/admin/costs/${cost.id}`, admin, {
      truckId: truck.id,
      type: 'REPAIR',
      amount: 7500,
      description: 'Tyre',
    });
    expect(res.statusCode).toBe(200);
    const [entry] = await t.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.entity, 'cost'), eq(activityLog.entityId, String(cost.id))));
    expect(entry!.changes).toEqual({ amount: { from: 5000, to: 7500 } });
    expect(entry!.action).toBe('admin.costs.update');
  });

  it('a refused write leaves no entry (the entry is in the write’s transaction)', async () => {
    const before = await lastId();
    const res = await t.call('PATCH', '/api/admin/costs/999999', admin, {
      truckId: 'nope',
      type: 'REPAIR',
      amount: 1,
      description: 'x',
    });
    expect(res.statusCode).toBe(404);
    expect(await lastId()).toBe(before);
  });

  it('a failed sign-in is recorded (with the account when it exists), the password never', async () => {
    const ops = await t.signIn('OPS');
    const before = await lastId();
    const res = await t.call('POST', '/api/auth/login', null, {
      email: ops.user.email,
      password: 'wrong-guess-1',
    });
    expect(res.statusCode).toBe(401);
    const entries = await t.database.db.select().from(activityLog).where(gt(activityLog.id, before));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'auth.signInFailed', userId: ops.user.id, role: 'OPS' });
    expect(JSON.stringify(entries[0]!.changes)).not.toContain('wrong-guess-1');
  });

  it('a replayed idempotent write answers its first result and adds no second entry', async () => {
    const fuel = await t.signIn('FUEL');
    const truck = await makeTruck(t.database.db);
    const body = { truckId: truck.id, litres: 50, odometer: 1000, cost: 8000 };
    const headers = { 'idempotency-key': 'f6a0c2e4-0000-4000-8000-000000000001' };
    await t.call('POST', '/api/fuel/logs', fuel, body, headers);
    const before = await lastId();
    const again = await t.call('POST', '/api/fuel/logs', fuel, body, headers);
    expect(again.statusCode).toBe(201);
    expect(await lastId()).toBe(before);
  });
});

describe('the log cannot be edited', () => {
  it('no procedure changes or deletes an entry', () => {
    const touching = mutations.filter((m) => /activity/i.test(m.path));
    expect(touching).toEqual([]);
  });

  it('the database refuses updates and deletes outside the retention job', async () => {
    const [entry] = await t.database.db.select().from(activityLog).limit(1);
    await expect(
      t.database.db.update(activityLog).set({ action: 'forged' }).where(eq(activityLog.id, entry!.id)),
    ).rejects.toThrow();
    await expect(t.database.db.delete(activityLog).where(eq(activityLog.id, entry!.id))).rejects.toThrow();
    await expect(t.database.db.execute(sql`truncate activity_log`)).rejects.toThrow();
    const [still] = await t.database.db.select().from(activityLog).where(eq(activityLog.id, entry!.id));
    expect(still!.action).toBe(entry!.action);
  });

  it('retention: the daily job deletes entries older than the setting, and only those', async () => {
    const settings = testSettings({ activityRetentionDays: 730 });
    const now = new Date();
    const old = new Date(now.getTime() - 731 * 24 * 3600_000);
    const young = new Date(now.getTime() - 729 * 24 * 3600_000);
    const [a, b] = await t.database.db
      .insert(activityLog)
      .values([
        { at: old, action: 'test.old', entity: 'test', changes: {} },
        { at: young, action: 'test.young', entity: 'test', changes: {} },
      ])
      .returning();
    const result = await expireActivity({ db: t.database.db, now: () => now, settings });
    expect(result.deleted).toBeGreaterThanOrEqual(1);
    const left = await t.database.db
      .select({ id: activityLog.id })
      .from(activityLog)
      .where(eq(activityLog.entity, 'test'));
    expect(left.map((r) => r.id)).toEqual([b!.id]);
    expect(a!.id).not.toBe(b!.id);
  });
});

describe('GET /api/admin/activity', () => {
  it('answers newest first with the documented fields, filtered by user, entity and dates; ADMIN only', async () => {
    const ops = await t.signIn('OPS');
    const truck = await makeTruck(t.database.db);
    for (const amount of [100, 200])
      expect(
        (
          await t.call('POST', '/api/admin/costs', ops, {
            truckId: truck.id,
            type: 'REPAIR',
            amount,
            description: 'x',
          })
        ).statusCode,
      ).toBe(201);
    const res = await t.call('GET', `/api/admin/activity?userId=${ops.user.id}&entity=cost&limit=10`, admin);
    expect(res.statusCode).toBe(200);
    const list = res.json() as Array<Record<string, unknown>>;
    expect(list).toHaveLength(2);
    expect(Object.keys(list[0]!).sort()).toEqual(
      [
        'action',
        'at',
        'changes',
        'entity',
        'entityId',
        'ip',
        'role',
        'userAgent',
        'userId',
        'userName',
      ].sort(),
    );
    expect(list[0]).toMatchObject({
      userId: ops.user.id,
      role: 'OPS',
      action: 'admin.costs.create',
      entity: 'cost',
    });
    expect((list[0]!.changes as Record<string, { to: unknown }>).amount!.to).toBe(200);
    expect((list[1]!.changes as Record<string, { to: unknown }>).amount!.to).toBe(100);
    expect(Date.parse(list[0]!.at as string)).toBeGreaterThanOrEqual(Date.parse(list[1]!.at as string));

    const tomorrow = new Date(Date.now() + 2 * 24 * 3600_000).toISOString().slice(0, 10);
    const none = await t.call('GET', `/api/admin/activity?userId=${ops.user.id}&from=${tomorrow}`, admin);
    expect(none.json()).toEqual([]);
    const bad = await t.call('GET', '/api/admin/activity?from=yesterday', admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('error');

    for (const role of ['OPS', 'DRIVER', 'FUEL', 'CUSTOMER'] as const)
      expect((await t.call('GET', '/api/admin/activity', await t.signIn(role))).statusCode).toBe(403);
    expect((await t.call('GET', '/api/admin/activity', null)).statusCode).toBe(401);
  });

  it('the filters list the people and entities in the log', async () => {
    const res = await t.call('GET', '/api/admin/activity/filters', admin);
    expect(res.statusCode).toBe(200);
    const { entities, users: people } = res.json() as { entities: string[]; users: Array<{ id: number }> };
    expect(entities).toContain('cost');
    expect(people.some((p) => p.id === admin.user.id)).toBe(true);
  });
});
