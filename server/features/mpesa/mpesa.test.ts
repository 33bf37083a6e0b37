import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMIT_RULES } from '../../../core/auth/rate-limit';
import { callbackStore } from '../../../core/mpesa/mpesa.service';
import { signPaymentToken } from '../../../core/mpesa/payment-token';
import { morningMpesaCheck, reconcileMpesa, unreconciled } from '../../../core/mpesa/reconcile';
import { mpesaCallbacks, mpesaStkRequests, orders, outbox, payments } from '../../../drizzle/schema';
import { MPESA_MESSAGES, STK_RESULTS } from '../../../shared/domain/mpesa';
import { dedupeIdFor } from '../../../shared/jobs';
import type { Settings } from '../../../shared/settings';
import { makeOrder } from '../../../test/factories';
import { fakeDaraja } from '../../../test/fake-daraja';
import { c2b, fixture, receipt, STK_FAILURE_CODES } from '../../../test/fixtures/daraja';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/helpers';
import { describeRoleMatrix } from '../../../test/role-matrix';

const SECRET = 'test-callback-secret-0123456789';
const KEYS = {
  consumerKey: 'fake-consumer-key',
  consumerSecret: 'fake-consumer-secret',
  shortcode: '174379',
  passkey: 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919',
};

let t: TestApp;
const daraja = fakeDaraja({
  ...KEYS,
  // Daraja's callbacks reach the app in-process: the path of the CallBackURL the push gave.
  deliver: async (url, body) => {
    await t.app.inject({ method: 'POST', url: new URL(url).pathname, payload: body as object });
  },
});

function mpesaSettings(baseUrl: string): Partial<Settings> {
  return {
    publicUrl: 'https://mchanga.example',
    mpesa: { baseUrl, ...KEYS, callbackSecret: SECRET, validateAccount: false, callbackIps: [] },
  };
}

beforeAll(async () => {
  const url = await daraja.start();
  // These tests send many prompts to the same few phones; the limits have a test of their own below.
  t = await createTestApp({
    settings: mpesaSettings(url),
    limits: { stkPerPhone: { points: 1_000, duration: 60 }, stkPerOrder: { points: 1_000, duration: 60 } },
  });
});
afterAll(async () => {
  await t?.close();
  await daraja.stop();
});

const callback = (path: 'stk' | 'c2b/validation' | 'c2b/confirmation', body: unknown, secret = SECRET) =>
  t.call('POST', `/api/payments/mpesa/${path}/${secret}`, null, body);

async function orderRow(id: number) {
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
  return row!;
}
const paymentsOf = (orderId: number) =>
  t.database.db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(payments.id);

async function customerOrder(over: Parameters<typeof makeOrder>[1] = {}) {
  const customer = await t.signIn('CUSTOMER');
  const order = await makeOrder(t.database.db, { customerId: customer.user.id, ...over });
  return { customer, order };
}

/** The order as the customer's own listing shows it. */
async function listed(customer: SignedIn, id: number) {
  const mine = await t.call('GET', '/api/orders/my', customer);
  return (mine.json() as Array<Record<string, unknown>>).find((o) => o.id === id)!;
}

async function alertsFor(kind: string) {
  return t.database.db
    .select({ payload: outbox.payload })
    .from(outbox)
    .where(sql`${outbox.payload}->>'kind' = ${kind}`);
}

/** Waits for the fake's callbacks, then relays the outbox and runs the jobs they queued. */
async function settleAll() {
  await daraja.idle();
  await t.jobs.drain();
}

describe('what the screens may offer', () => {
  it('names the paybill and offers the prompt when Daraja is set up', async () => {
    const res = await t.call('GET', '/api/payments/mpesa');
    expect(res.json()).toEqual({ paybill: '174379', stk: true });
  });

  it('without the M-Pesa settings: no prompt, no callbacks, and the typed reference flow as before', async () => {
    const bare = await createTestApp();
    try {
      expect((await bare.call('GET', '/api/payments/mpesa')).json()).toEqual({ paybill: null, stk: false });
      const customer = await bare.signIn('CUSTOMER');
      const order = await makeOrder(bare.database.db, { customerId: customer.user.id });
      const push = await bare.call('POST', `/api/orders/${order.id}/mpesa/stk`, customer, {
        phone: '0712345678',
      });
      expect(push.statusCode).toBe(409);
      expect(push.json().error).toMatch(/not available/);
      const cb = await bare.call(
        'POST',
        `/api/payments/mpesa/c2b/confirmation/${SECRET}`,
        null,
        c2b({
          account: `MCH${order.id}`,
          amountKes: 64_000,
        }),
      );
      expect(cb.statusCode).toBe(404);
      const typed = await bare.call('POST', `/api/orders/${order.id}/payment`, customer, {
        method: 'M-Pesa',
        reference: 'QK7H2LMN3P',
      });
      expect(typed.json()).toEqual({ status: 'PAYMENT_REVIEW', paymentStatus: 'SUBMITTED' });
    } finally {
      await bare.close();
    }
  });

  it('takes C2B confirmations with MPESA_CALLBACK_SECRET alone (no Daraja keys)', async () => {
    const c2bOnly = await createTestApp({
      settings: {
        mpesa: {
          ...mpesaSettings('https://sandbox.safaricom.co.ke').mpesa!,
          consumerKey: undefined,
          passkey: undefined,
        },
      },
    });
    try {
      expect((await c2bOnly.call('GET', '/api/payments/mpesa')).json()).toEqual({
        paybill: '174379',
        stk: false,
      });
      const order = await makeOrder(c2bOnly.database.db);
      const res = await c2bOnly.call(
        'POST',
        `/api/payments/mpesa/c2b/confirmation/${SECRET}`,
        null,
        c2b({ account: `MCH${order.id}`, amountKes: 64_000 }),
      );
      expect(res.json()).toEqual({ ResultCode: 0, ResultDesc: 'Accepted' });
      await c2bOnly.jobs.drain();
      const [row] = await c2bOnly.database.db.select().from(orders).where(eq(orders.id, order.id));
      expect(row).toMatchObject({ status: 'RECEIVED', paymentStatus: 'CONFIRMED' });
    } finally {
      await c2bOnly.close();
    }
  });
});

describe('callback protection', () => {
  it('answers a wrong secret like an unknown path (404) and stores nothing', async () => {
    const before = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(mpesaCallbacks);
    for (const path of ['stk', 'c2b/validation', 'c2b/confirmation'] as const) {
      const wrong = await callback(path, fixture('c2b-confirmation'), 'wrong-secret-0123456789012');
      expect(wrong.statusCode, path).toBe(404);
      expect(wrong.json()).toEqual({ error: 'No such API endpoint.' });
      expect((await callback(path, fixture('c2b-confirmation'), `${SECRET}x`)).statusCode).toBe(404);
    }
    const after = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(mpesaCallbacks);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('refuses a body that is not JSON (400), whatever its content type', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/payments/mpesa/c2b/confirmation/${SECRET}`,
      headers: { 'content-type': 'text/plain' },
      payload: 'TransID=ABC',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual(expect.any(String));
  });

  it('takes callbacks only from the allow-list when one is set', async () => {
    const listed = await createTestApp({
      settings: {
        mpesa: {
          ...mpesaSettings('https://sandbox.safaricom.co.ke').mpesa!,
          callbackIps: ['196.201.214.0/24', '196.201.213.114'],
        },
      },
    });
    try {
      const send = (remoteAddress: string) =>
        listed.app.inject({
          method: 'POST',
          url: `/api/payments/mpesa/c2b/validation/${SECRET}`,
          remoteAddress,
          payload: fixture('c2b-validation'),
        });
      expect((await send('196.201.214.200')).statusCode).toBe(200);
      expect((await send('196.201.213.114')).statusCode).toBe(200);
      expect((await send('::ffff:196.201.214.7')).statusCode).toBe(200);
      expect((await send('41.90.1.2')).statusCode).toBe(404);
      expect((await send('196.201.213.115')).statusCode).toBe(404);
    } finally {
      await listed.close();
    }
  });
});

describe('callbacks in a burst', () => {
  const received = (n: number) => ({
    kind: 'C2B_CONFIRMATION' as const,
    body: JSON.stringify(c2b({ account: 'MCH 0', amountKes: n })),
    sourceIp: '127.0.0.1',
    receivedAt: new Date(),
  });
  async function storedWithJob(id: number) {
    const [row] = await t.database.db.select().from(mpesaCallbacks).where(eq(mpesaCallbacks.id, id));
    const jobs = await t.database.db
      .select({ dedupeId: outbox.dedupeId })
      .from(outbox)
      .where(eq(outbox.dedupeId, dedupeIdFor('mpesa.process', { callbackId: id })!));
    return { body: row?.body, jobs: jobs.length };
  }

  it('stores callbacks that arrive together in a few statements, each with its own job, each answered with its id', async () => {
    let statements = 0;
    const db = t.database.db;
    const counting = new Proxy(db, {
      get: (target, prop) =>
        prop === 'execute'
          ? (...args: Parameters<typeof db.execute>) => {
              statements += 1;
              return target.execute(...args);
            }
          : Reflect.get(target, prop),
    });
    const store = callbackStore(counting);
    const sent = Array.from({ length: 40 }, (_, i) => received(1_000 + i));
    const ids = await Promise.all(sent.map((cb) => store.accept(cb)));
    expect(new Set(ids).size).toBe(40);
    // The first goes at once; the 39 that arrived while it was written go together.
    expect(statements).toBe(2);
    for (const [i, id] of ids.entries())
      expect(await storedWithJob(id)).toEqual({ body: sent[i]!.body, jobs: 1 });
  });

  it('a row the database refuses fails only its own callback, not the others written with it', async () => {
    const store = callbackStore(t.database.db);
    const good = [received(2_001), received(2_002), received(2_003)];
    // PostgreSQL text cannot hold a NUL character.
    const bad = { ...received(2_004), body: '{"TransID":"A\u0000B"}' };
    const answers = await Promise.allSettled([
      store.accept(good[0]!),
      store.accept(bad),
      store.accept(good[1]!),
      store.accept(good[2]!),
    ]);
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const ids = answers.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    for (const [i, id] of ids.entries())
      expect(await storedWithJob(id)).toEqual({ body: good[i]!.body, jobs: 1 });
  });

  it('answers 50 callbacks posted at once, and each payment is credited once', async () => {
    const paid = await Promise.all(Array.from({ length: 5 }, () => customerOrder({ trucks: 1 })));
    const bodies = paid.flatMap(({ order }) => {
      const body = c2b({ account: `MCH${order.id}`, amountKes: 32_000 });
      return Array.from({ length: 10 }, () => body);
    });
    const answers = await Promise.all(bodies.map((body) => callback('c2b/confirmation', body)));
    expect(answers.map((a) => a.json())).toEqual(
      bodies.map(() => ({ ResultCode: 0, ResultDesc: 'Accepted' })),
    );
    await t.jobs.drain();
    for (const { order } of paid) {
      expect(await orderRow(order.id)).toMatchObject({ status: 'RECEIVED', paymentStatus: 'CONFIRMED' });
      expect(await paymentsOf(order.id)).toHaveLength(1);
    }
  });
});

describe('C2B paybill payments (reconciled by account number and amount)', () => {
  it('stores the raw body, answers at once, then settles a full payment exactly as an ops confirmation', async () => {
    const { customer, order } = await customerOrder({ trucks: 2 });
    const body = c2b({ account: `MCH${order.id}`, amountKes: 64_000 });
    const res = await callback('c2b/confirmation', body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ResultCode: 0, ResultDesc: 'Accepted' });
    const [raw] = await t.database.db
      .select()
      .from(mpesaCallbacks)
      .where(sql`${mpesaCallbacks.body}::jsonb->>'TransID' = ${body.TransID}`);
    expect(JSON.parse(raw!.body)).toEqual(body);
    expect(raw!.processedAt).toBeNull();
    // Its processing job waits in the outbox exactly as writeOutbox would have written it.
    const jobs = await t.database.db
      .select({ job: outbox.job, payload: outbox.payload, dedupeId: outbox.dedupeId })
      .from(outbox)
      .where(sql`${outbox.payload}->>'callbackId' = ${String(raw!.id)}`);
    expect(jobs).toEqual([
      {
        job: 'mpesa.process',
        payload: { callbackId: raw!.id },
        dedupeId: dedupeIdFor('mpesa.process', { callbackId: raw!.id }),
      },
    ]);
    // Nothing is credited before the job runs: the answer did not wait for it.
    expect(await paymentsOf(order.id)).toEqual([]);

    await t.jobs.drain();
    expect(await orderRow(order.id)).toMatchObject({ status: 'RECEIVED', paymentStatus: 'CONFIRMED' });
    const [payment] = await paymentsOf(order.id);
    expect(payment).toMatchObject({
      method: 'MPESA',
      source: 'MPESA_C2B',
      status: 'CONFIRMED',
      reference: body.TransID,
      mpesaReceipt: body.TransID,
      amountCents: 6_400_000,
      creditCents: 0,
      payerName: 'NICHOLAS',
      payerPhone: '2547 ***** 126',
      accountRef: `MCH${order.id}`,
    });
    expect(payment!.paidAt?.toISOString()).toBe('2026-11-23T09:13:25.000Z');
    expect(
      (await alertsFor('payment.received')).some(
        (a) => (a.payload as { paymentId: number }).paymentId === payment!.id,
      ),
    ).toBe(true);
    expect(await listed(customer, order.id)).toMatchObject({
      status: 'RECEIVED',
      payment_status: 'CONFIRMED',
      accountRef: `MCH${order.id}`,
      paid: 64_000,
      balance: 0,
      credit: 0,
      payments: [
        expect.objectContaining({
          method: 'MPESA',
          reference: body.TransID,
          verified: true,
          amount: 64_000,
          payerName: 'NICHOLAS',
          payerPhone: '2547 ***** 126',
        }),
      ],
    });
  });

  it('replay: one payment delivered three times (in turn and at once) is credited once', async () => {
    const { customer, order } = await customerOrder({ trucks: 2 });
    const body = c2b({ account: `MCH${order.id}`, amountKes: 20_000, masked: false });
    for (let i = 0; i < 3; i++) expect((await callback('c2b/confirmation', body)).statusCode).toBe(200);
    await t.jobs.drain();
    const again = c2b({ account: `MCH${order.id}`, amountKes: 10_000 });
    const answers = await Promise.all([1, 2, 3].map(() => callback('c2b/confirmation', again)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    await t.jobs.drain();

    const stored = await t.database.db
      .select({ outcome: mpesaCallbacks.outcome })
      .from(mpesaCallbacks)
      .where(sql`${mpesaCallbacks.ref} in (${body.TransID}, ${again.TransID})`);
    expect(stored.map((s) => s.outcome).sort()).toEqual([
      'credited',
      'credited',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    expect(await paymentsOf(order.id)).toHaveLength(2);
    expect(await listed(customer, order.id)).toMatchObject({ paid: 30_000, balance: 34_000, credit: 0 });
    // The unmasked MSISDN of the older format is masked before it is kept.
    expect((await paymentsOf(order.id))[0]!.payerPhone).toBe('2547 ***** 149');
  });

  it('partial: records what was paid and the balance, and the order stays awaiting payment until the rest', async () => {
    const { customer, order } = await customerOrder({ trucks: 2 });
    await callback('c2b/confirmation', c2b({ account: `MCH${order.id}`, amountKes: 20_000 }));
    await t.jobs.drain();
    expect(await orderRow(order.id)).toMatchObject({ status: 'AWAITING_PAYMENT', paymentStatus: 'PENDING' });
    expect(await listed(customer, order.id)).toMatchObject({
      status: 'AWAITING_PAYMENT',
      paid: 20_000,
      balance: 44_000,
      credit: 0,
    });
    await callback('c2b/confirmation', c2b({ account: `mch-${order.id}`, amountKes: 44_000 }));
    await t.jobs.drain();
    expect(await orderRow(order.id)).toMatchObject({ status: 'RECEIVED', paymentStatus: 'CONFIRMED' });
    expect(await listed(customer, order.id)).toMatchObject({ paid: 64_000, balance: 0, credit: 0 });
  });

  it('over: records the payment with a credit that ops can see', async () => {
    const admin = await t.signIn('ADMIN');
    const ops = await t.signIn('OPS');
    const { order } = await customerOrder({ trucks: 2 });
    await callback('c2b/confirmation', c2b({ account: ` Mch ${order.id} `, amountKes: 70_000 }));
    await t.jobs.drain();
    expect(await orderRow(order.id)).toMatchObject({ status: 'RECEIVED', paymentStatus: 'CONFIRMED' });
    const rows = (await t.call('GET', '/api/admin/orders', admin)).json() as Array<Record<string, unknown>>;
    expect(rows.find((o) => o.id === order.id)).toMatchObject({
      paid: 70_000,
      balance: 0,
      credit: 6_000,
      payments: [expect.objectContaining({ amount: 70_000, credit: 6_000 })],
    });
    const open = (await t.call('GET', '/api/admin/payments/unreconciled', ops)).json();
    expect(open.credits).toContainEqual({
      orderId: order.id,
      accountRef: `MCH${order.id}`,
      name: 'Test Customer',
      credit: 6_000,
    });
  });

  it.each([['mch {id}'], ['MCH-{id}'], ['Mch{id}'], ['m c h {id}']])(
    'reads the account number %s ignoring spaces, dashes and letter case',
    async (typed) => {
      const { order } = await customerOrder();
      await callback(
        'c2b/confirmation',
        c2b({ account: typed.replace('{id}', String(order.id)), amountKes: 32_000 }),
      );
      await t.jobs.drain();
      expect(await orderRow(order.id)).toMatchObject({ status: 'RECEIVED', paymentStatus: 'CONFIRMED' });
    },
  );

  it('confirms a receipt the customer typed already, on the same record (no second payment)', async () => {
    const { customer, order } = await customerOrder();
    const typedReceipt = receipt();
    await t.call('POST', `/api/orders/${order.id}/payment`, customer, {
      method: 'M-Pesa',
      reference: typedReceipt.toLowerCase(),
    });
    await callback(
      'c2b/confirmation',
      c2b({ account: `MCH${order.id}`, amountKes: 32_000, receipt: typedReceipt }),
    );
    await t.jobs.drain();
    expect(await orderRow(order.id)).toMatchObject({ status: 'RECEIVED', paymentStatus: 'CONFIRMED' });
    expect(await paymentsOf(order.id)).toEqual([
      expect.objectContaining({
        source: 'MPESA_C2B',
        status: 'CONFIRMED',
        amountCents: 3_200_000,
        mpesaReceipt: typedReceipt,
      }),
    ]);
  });

  it('unmatched: an unknown account waits in the list for ops, who match it (who and when kept)', async () => {
    const admin = await t.signIn('ADMIN');
    const ops = await t.signIn('OPS');
    const { customer, order } = await customerOrder();
    const body = c2b({ account: 'MCHANGA 4O', amountKes: 32_000 });
    await callback('c2b/confirmation', body);
    await t.jobs.drain();

    const list = await t.call('GET', '/api/admin/payments/unmatched', ops);
    expect(list.statusCode).toBe(200);
    const waiting = (list.json().payments as Array<Record<string, unknown>>).find(
      (p) => p.receipt === body.TransID,
    );
    expect(waiting).toMatchObject({
      amount: 32_000,
      accountRef: 'MCHANGA 4O',
      payerName: 'NICHOLAS',
      payerPhone: '2547 ***** 126',
      paidAt: '2026-11-23T09:13:25.000Z',
    });
    expect((await t.call('GET', '/api/admin/payments/unmatched', admin)).statusCode).toBe(200);
    expect((await t.call('GET', '/api/admin/payments/unmatched', customer)).statusCode).toBe(403);
    const unreconciled = (await t.call('GET', '/api/admin/payments/unreconciled', admin)).json();
    expect(unreconciled.unmatched.map((p: { id: number }) => p.id)).toContain(waiting!.id);

    const id = waiting!.id as number;
    const noOrder = await t.call('POST', `/api/admin/payments/${id}/match`, ops, { orderId: 2_000_000_000 });
    expect(noOrder.statusCode).toBe(400);
    expect(noOrder.json()).toEqual({ error: 'No order with that number.' });
    const matched = await t.call('POST', `/api/admin/payments/${id}/match`, ops, { orderId: order.id });
    expect(matched.statusCode).toBe(200);
    expect(matched.json()).toEqual({
      id,
      orderId: order.id,
      accountRef: `MCH${order.id}`,
      amount: 32_000,
      matchedBy: { id: ops.user.id, name: ops.user.name },
      matchedAt: expect.any(String),
    });
    await t.jobs.drain();
    expect(await orderRow(order.id)).toMatchObject({ status: 'RECEIVED', paymentStatus: 'CONFIRMED' });
    const [stored] = await paymentsOf(order.id);
    expect(stored).toMatchObject({
      id,
      status: 'CONFIRMED',
      matchedById: ops.user.id,
      accountRef: 'MCHANGA 4O',
    });
    expect(stored!.matchedAt).toBeInstanceOf(Date);

    const twice = await t.call('POST', `/api/admin/payments/${id}/match`, admin, { orderId: order.id });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ error: 'This payment is already matched to an order.' });
    const unknown = await t.call('POST', '/api/admin/payments/999999/match', admin, { orderId: order.id });
    expect(unknown.statusCode).toBe(404);
    const after = (await t.call('GET', '/api/admin/payments/unmatched', ops)).json().payments as Array<{
      id: number;
    }>;
    expect(after.map((p) => p.id)).not.toContain(id);
  });
});

describe('C2B validation', () => {
  it('accepts every account unless MPESA_VALIDATE_ACCOUNT=true, then refuses unknown ones with C2B00012', async () => {
    const order = await makeOrder(t.database.db);
    const unknown = { ...fixture('c2b-validation'), BillRefNumber: 'MCH1999999999', TransID: receipt() };
    const known = { ...fixture('c2b-validation'), BillRefNumber: `mch ${order.id}`, TransID: receipt() };
    expect((await callback('c2b/validation', unknown)).json()).toEqual({
      ResultCode: 0,
      ResultDesc: 'Accepted',
    });
    t.deps.settings.mpesa.validateAccount = true;
    try {
      expect((await callback('c2b/validation', unknown)).json()).toEqual({
        ResultCode: 'C2B00012',
        ResultDesc: 'Rejected',
      });
      expect((await callback('c2b/validation', known)).json()).toEqual({
        ResultCode: 0,
        ResultDesc: 'Accepted',
      });
    } finally {
      t.deps.settings.mpesa.validateAccount = false;
    }
    const stored = await t.database.db
      .select({ outcome: mpesaCallbacks.outcome, body: mpesaCallbacks.body })
      .from(mpesaCallbacks)
      .where(and(eq(mpesaCallbacks.kind, 'C2B_VALIDATION'), sql`${mpesaCallbacks.ref} = ${unknown.TransID}`))
      .orderBy(mpesaCallbacks.id);
    expect(stored.map((s) => s.outcome)).toEqual(['accepted', 'refused']);
    expect(JSON.parse(stored[0]!.body)).toEqual(unknown);
  });
});

describe('STK push', () => {
  async function push(who: SignedIn | null, orderId: number, body: Record<string, unknown>) {
    return t.call('POST', `/api/orders/${orderId}/mpesa/stk`, who, body);
  }
  const status = (who: SignedIn | null, orderId: number, checkout: string, token?: string) =>
    t.call(
      'GET',
      `/api/orders/${orderId}/mpesa/stk/${checkout}${token ? `?paymentToken=${encodeURIComponent(token)}` : ''}`,
      who,
    );

  it('sends the documented request, answers 202, and the callback confirms the order', async () => {
    const { customer, order } = await customerOrder({ trucks: 2 });
    const res = await push(customer, order.id, { phone: '0712 345 678' });
    expect(res.statusCode).toBe(202);
    const accepted = res.json();
    expect(accepted).toEqual({
      checkoutRequestId: expect.stringMatching(/^ws_CO_/),
      amount: 64_000,
      part: 1,
      parts: 1,
      message: 'Check your phone and enter your M-Pesa PIN',
    });
    const sent = daraja.pushes.at(-1)!;
    expect(sent.body).toMatchObject({
      BusinessShortCode: KEYS.shortcode,
      TransactionType: 'CustomerPayBillOnline',
      Amount: 64_000,
      PartyA: '254712345678',
      PartyB: KEYS.shortcode,
      PhoneNumber: '254712345678',
      CallBackURL: `https://mchanga.example/api/payments/mpesa/stk/${SECRET}`,
      AccountReference: `MCH${order.id}`,
    });
    const ts = String(sent.body.Timestamp);
    expect(sent.body.Password).toBe(Buffer.from(`${KEYS.shortcode}${KEYS.passkey}${ts}`).toString('base64'));

    const waiting = await status(customer, order.id, accepted.checkoutRequestId);
    expect(waiting.json()).toMatchObject({
      status: 'PENDING',
      message: 'Check your phone and enter your M-Pesa PIN',
    });
    await settleAll();
    const done = await status(customer, order.id, accepted.checkoutRequestId);
    expect(done.json()).toMatchObject({
      status: 'PAID',
      resultCode: '0',
      message: STK_RESULTS['0']!.message,
      receipt: sent.receipt,
      order: {
        status: 'RECEIVED',
        paymentStatus: 'CONFIRMED',
        paid: 64_000,
        balance: 0,
        accountRef: `MCH${order.id}`,
      },
    });
    expect(await paymentsOf(order.id)).toEqual([
      expect.objectContaining({
        method: 'MPESA',
        source: 'MPESA_STK',
        mpesaReceipt: sent.receipt,
        checkoutRequestId: accepted.checkoutRequestId,
        amountCents: 6_400_000,
        payerPhone: '2547 ***** 678',
      }),
    ]);
  });

  it('replay: the same STK result delivered three times is credited once', async () => {
    const { customer, order } = await customerOrder({ trucks: 2 });
    daraja.next({ result: 0, deliveries: 3 });
    const res = await push(customer, order.id, { phone: '0712345678' });
    await settleAll();
    const checkout = res.json().checkoutRequestId;
    const stored = await t.database.db
      .select({ outcome: mpesaCallbacks.outcome })
      .from(mpesaCallbacks)
      .where(eq(mpesaCallbacks.ref, checkout));
    expect(stored.map((s) => s.outcome).sort()).toEqual(['credited', 'duplicate', 'duplicate']);
    expect(await paymentsOf(order.id)).toHaveLength(1);
    expect(await listed(customer, order.id)).toMatchObject({ paid: 64_000, balance: 0, credit: 0 });
  });

  it('splits a balance above KES 250,000 into prompts of at most 250,000, one at a time', async () => {
    const { customer, order } = await customerOrder({ trucks: 20 });
    const seen: Array<{ amount: number; part: number; parts: number }> = [];
    for (let i = 0; i < 3; i++) {
      const res = await push(customer, order.id, { phone: '0712345678' });
      expect(res.statusCode).toBe(202);
      const { amount, part, parts } = res.json();
      seen.push({ amount, part, parts });
      await settleAll();
      if (i < 2) expect((await orderRow(order.id)).status).toBe('AWAITING_PAYMENT');
    }
    expect(seen).toEqual([
      { amount: 250_000, part: 1, parts: 3 },
      { amount: 250_000, part: 2, parts: 3 },
      { amount: 140_000, part: 3, parts: 3 },
    ]);
    expect(await orderRow(order.id)).toMatchObject({ status: 'RECEIVED', paymentStatus: 'CONFIRMED' });
    const nothing = await push(customer, order.id, { phone: '0712345678' });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json()).toEqual({ error: 'This order has nothing left to pay.' });
  });

  it.each(STK_FAILURE_CODES)('result code %i: FAILED with its message, the order unchanged', async (code) => {
    const { customer, order } = await customerOrder();
    daraja.next({ result: code });
    const res = await push(customer, order.id, { phone: '0722000111' });
    await settleAll();
    const answer = (await status(customer, order.id, res.json().checkoutRequestId)).json();
    expect(answer).toMatchObject({
      status: 'FAILED',
      resultCode: String(code),
      message: STK_RESULTS[String(code)]!.message,
      order: { status: 'AWAITING_PAYMENT', paid: 0, balance: 32_000 },
    });
    expect(await paymentsOf(order.id)).toEqual([]);
  });

  it('lets a guest pay with the paymentToken from the order, and nobody without it', async () => {
    const guest = await t.call('POST', '/api/orders/guest', null, {
      name: 'Achieng Otieno',
      phone: '0733000111',
      site: 'Juja, Gachororo',
      sandType: 'coarse',
      trucks: 1,
      dateNeeded: '2026-12-01',
    });
    const { id, paymentToken, accountRef } = guest.json();
    expect(accountRef).toBe(`MCH${id}`);
    const stranger = await t.signIn('CUSTOMER');
    const other = await makeOrder(t.database.db);
    const otherToken = await signPaymentToken(other.id, t.deps.settings.jwtSecret, new Date());
    const stale = await signPaymentToken(id, t.deps.settings.jwtSecret, new Date(Date.now() - 25 * 3600_000));
    for (const [who, token] of [
      [null, undefined],
      [stranger, undefined],
      [null, otherToken],
      [null, stale],
      [null, 'not-a-token'],
    ] as const) {
      const refused = await push(who, id, { phone: '0712345678', ...(token ? { paymentToken: token } : {}) });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ error: 'Order not found.' });
    }
    const res = await push(null, id, { phone: '0712345678', paymentToken });
    expect(res.statusCode).toBe(202);
    await settleAll();
    expect((await status(null, id, res.json().checkoutRequestId)).statusCode).toBe(404);
    const followed = await status(null, id, res.json().checkoutRequestId, paymentToken);
    expect(followed.json()).toMatchObject({ status: 'PAID', order: { status: 'RECEIVED' } });
  });

  it('validates and normalises the phone', async () => {
    const { customer, order } = await customerOrder();
    for (const phone of ['12345', '0812345678', 'O712345678', '']) {
      const res = await push(customer, order.id, { phone });
      expect(res.statusCode, phone).toBe(400);
      expect(res.json()).toEqual({ error: 'Enter the M-Pesa phone number, like 0712 345 678.' });
    }
    const ok = await push(customer, order.id, { phone: '+254 110-000-126' });
    expect(ok.statusCode).toBe(202);
    expect(daraja.pushes.at(-1)!.body.PhoneNumber).toBe('254110000126');
    await settleAll();
  });

  it('answers a second tap with the same prompt, and a prompt for another phone with 409 while one is open', async () => {
    const { customer, order } = await customerOrder();
    daraja.next({ result: 'never' });
    const pushes = daraja.pushes.length;
    const first = await push(customer, order.id, { phone: '0712345678' });
    const again = await push(customer, order.id, { phone: '0712 345 678' });
    expect(again.json().checkoutRequestId).toBe(first.json().checkoutRequestId);
    expect(daraja.pushes.length).toBe(pushes + 1);
    const other = await push(customer, order.id, { phone: '0722000111' });
    expect(other.statusCode).toBe(409);
  });

  it("turns Daraja's refusals into what the customer can do, and an absent Daraja into 503", async () => {
    const { customer, order } = await customerOrder();
    daraja.next({ result: 0, refuse: 'busy' });
    const busy = await push(customer, order.id, { phone: '0712345678' });
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toEqual({ error: STK_RESULTS['1001']!.message });
    daraja.next({ result: 0, refuse: 'bad-phone' });
    const refused = await push(customer, order.id, { phone: '0712345678' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatch(/refused this phone number/);

    const away = await createTestApp({ settings: mpesaSettings('http://127.0.0.1:9') });
    try {
      const who = await away.signIn('CUSTOMER');
      const mine = await makeOrder(away.database.db, { customerId: who.user.id });
      const res = await away.call('POST', `/api/orders/${mine.id}/mpesa/stk`, who, { phone: '0712345678' });
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toMatch(/not answering/);
      expect(await away.database.db.select().from(mpesaStkRequests)).toEqual([]);
    } finally {
      await away.close();
    }
  });

  it('caches the OAuth token until it expires, and fetches a new one when Daraja no longer takes it', async () => {
    const before = daraja.counts.oauth;
    for (let i = 0; i < 3; i++) {
      const { customer, order } = await customerOrder();
      expect((await push(customer, order.id, { phone: '0712345678' })).statusCode).toBe(202);
    }
    expect(daraja.counts.oauth - before).toBeLessThanOrEqual(1);
    daraja.revokeTokens();
    const { customer, order } = await customerOrder();
    expect((await push(customer, order.id, { phone: '0712345678' })).statusCode).toBe(202);
    expect(daraja.counts.oauth - before).toBeLessThanOrEqual(2);
    await settleAll();
  });
});

describe('nothing left hanging', () => {
  const later = (minutes: number) => () => new Date(Date.now() + minutes * 60_000);
  const reconcile = (minutes: number) =>
    reconcileMpesa({ db: t.database.db, now: later(minutes), settings: t.deps.settings });

  it('a callback that never comes: after 10 minutes the job asks Daraja and settles the order; the late C2B names the receipt', async () => {
    const { customer, order } = await customerOrder();
    daraja.next({ result: 'never' });
    const res = await push(customer, order.id);
    const checkout = res.json().checkoutRequestId;
    await settleAll();
    const queries = daraja.counts.query;
    await reconcile(5);
    expect(daraja.counts.query).toBe(queries);
    const open = (await t.call('GET', '/api/admin/payments/unreconciled', await t.signIn('OPS'))).json();
    expect(open.prompts).toEqual([]);

    const result = await reconcile(11);
    expect(result).toMatchObject({ asked: expect.any(Number), answered: expect.any(Number) });
    expect(daraja.counts.query).toBeGreaterThan(queries);
    await t.jobs.drain();
    expect(await orderRow(order.id)).toMatchObject({ status: 'RECEIVED', paymentStatus: 'CONFIRMED' });
    const [paid] = await paymentsOf(order.id);
    expect(paid).toMatchObject({
      source: 'MPESA_STK',
      checkoutRequestId: checkout,
      mpesaReceipt: null,
      amountCents: 3_200_000,
    });

    const late = c2b({ account: `MCH${order.id}`, amountKes: 32_000 });
    await callback('c2b/confirmation', late);
    await t.jobs.drain();
    expect(await paymentsOf(order.id)).toEqual([
      expect.objectContaining({ id: paid!.id, mpesaReceipt: late.TransID, reference: late.TransID }),
    ]);
    expect(await listed(customer, order.id)).toMatchObject({ paid: 32_000, credit: 0 });
  });

  it('a prompt Daraja still calls "being processed" shows in the ops view with the last answer', async () => {
    const { customer, order } = await customerOrder();
    daraja.next({ result: 'never', query: 'processing' });
    const res = await push(customer, order.id);
    await settleAll();
    await reconcile(11);
    // The view as ops would see it eleven minutes on.
    const view = await unreconciled(t.database.db, later(11)());
    const prompt = view.prompts.find((p) => p.orderId === order.id);
    expect(prompt).toMatchObject({
      accountRef: `MCH${order.id}`,
      amount: 32_000,
      phone: '2547 ***** 678',
      queryCount: 1,
      lastAnswer: 'The transaction is being processed',
    });
    expect(res.statusCode).toBe(202);
    expect(await orderRow(order.id)).toMatchObject({ status: 'AWAITING_PAYMENT' });
  });

  it('processes a stored callback whose job never ran, and the morning check alerts while anything is open', async () => {
    const { order } = await customerOrder();
    const body = c2b({ account: `MCH${order.id}`, amountKes: 32_000 });
    const [cb] = await t.database.db
      .insert(mpesaCallbacks)
      .values({ kind: 'C2B_CONFIRMATION', body: JSON.stringify(body), receivedAt: new Date() })
      .returning();
    const view = async () =>
      (await t.call('GET', '/api/admin/payments/unreconciled', await t.signIn('ADMIN'))).json();
    expect((await view()).callbacks.map((c: { id: number }) => c.id)).not.toContain(cb!.id);
    const morning = await morningMpesaCheck({ db: t.database.db, now: later(3) });
    expect(morning.callbacks).toBeGreaterThanOrEqual(1);
    expect(morning.alerted).toBe(true);
    expect(await alertsFor('mpesa.unreconciled')).not.toEqual([]);

    await reconcile(3);
    await t.jobs.drain();
    expect(await orderRow(order.id)).toMatchObject({ status: 'RECEIVED' });
    const [row] = await t.database.db.select().from(mpesaCallbacks).where(eq(mpesaCallbacks.id, cb!.id));
    expect(row).toMatchObject({ outcome: 'credited', ref: body.TransID });
  });

  async function push(customer: SignedIn, orderId: number) {
    return t.call('POST', `/api/orders/${orderId}/mpesa/stk`, customer, { phone: '0712345678' });
  }
});

describe('prompts nobody can use to flood a phone', () => {
  let f: TestApp;
  const quiet = fakeDaraja({ ...KEYS, deliver: async () => {} });
  beforeAll(async () => {
    const url = await quiet.start();
    quiet.setDefault({ result: 'never' });
    f = await createTestApp({ settings: mpesaSettings(url) });
  });
  afterAll(async () => {
    await f?.close();
    await quiet.stop();
  });

  it(`20 prompts at once to one phone from 20 orders: ${LIMIT_RULES.stkPerPhone.points} reach it, the rest 429 with Retry-After`, async () => {
    const customer = await f.signIn('CUSTOMER');
    const mine = await Promise.all(
      Array.from({ length: 20 }, () => makeOrder(f.database.db, { customerId: customer.user.id })),
    );
    const before = quiet.counts.push;
    const answers = await Promise.all(
      mine.map((o) => f.call('POST', `/api/orders/${o.id}/mpesa/stk`, customer, { phone: '0799 000 111' })),
    );
    const sent = quiet.counts.push - before;
    expect(sent, `prompts that reached the phone: ${sent}/20`).toBe(LIMIT_RULES.stkPerPhone.points);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(refused).toHaveLength(20 - LIMIT_RULES.stkPerPhone.points);
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused[0]!.json()).toEqual({ error: MPESA_MESSAGES.tooManyPhone });
  });

  it(`20 prompts at once on one order: at most ${LIMIT_RULES.stkPerOrder.points}, the rest refused`, async () => {
    const customer = await f.signIn('CUSTOMER');
    const order = await makeOrder(f.database.db, { customerId: customer.user.id });
    const before = quiet.counts.push;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        f.call('POST', `/api/orders/${order.id}/mpesa/stk`, customer, {
          phone: `0798 000 ${String(100 + i)}`,
        }),
      ),
    );
    const sent = quiet.counts.push - before;
    expect(sent, `prompts sent for one order: ${sent}/20`).toBeLessThanOrEqual(
      LIMIT_RULES.stkPerOrder.points,
    );
    expect(answers.filter((a) => a.statusCode === 202)).toHaveLength(sent);
    expect(answers.every((a) => [202, 409, 429].includes(a.statusCode))).toBe(true);
  });
});

describe('the unmatched list pages', () => {
  it('pages newest first with limit and cursor until nothing is left', async () => {
    const ops = await t.signIn('OPS');
    const at = new Date('2031-01-01T00:00:00Z').getTime();
    const made = await t.database.db
      .insert(payments)
      .values(
        Array.from({ length: 230 }, (_, i) => ({
          method: 'MPESA',
          source: 'MPESA_C2B' as const,
          reference: `PG${String(i).padStart(6, '0')}X`,
          mpesaReceipt: `PG${String(i).padStart(6, '0')}X`,
          amountCents: 100_000,
          status: 'CONFIRMED' as const,
          createdAt: new Date(at + i * 1000),
        })),
      )
      .returning({ id: payments.id });
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await t.call(
        'GET',
        `/api/admin/payments/unmatched?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        ops,
      );
      expect(res.statusCode).toBe(200);
      const page = res.json() as { payments: Array<{ id: number }>; nextCursor: string | null };
      expect(page.payments.length).toBeLessThanOrEqual(100);
      seen.push(...page.payments.map((p) => p.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    const mine = seen.filter((id) => made.some((m) => m.id === id));
    expect(mine).toEqual(made.map((m) => m.id).reverse());
    expect(new Set(seen).size).toBe(seen.length);
    expect(pages).toBeGreaterThanOrEqual(3);
    const bad = await t.call('GET', '/api/admin/payments/unmatched?cursor=nonsense', ops);
    expect(bad.statusCode).toBe(400);
    const doc = (await t.call('GET', '/api/openapi.json')).json();
    const params = doc.paths['/api/admin/payments/unmatched'].get.parameters.map(
      (p: { name: string }) => p.name,
    );
    expect(params).toEqual(expect.arrayContaining(['limit', 'cursor']));
    await t.database.db.delete(payments).where(sql`${payments.reference} like 'PG%X'`);
  });
});

describeRoleMatrix('m-pesa ops', () => t, [
  ['GET', '/api/admin/payments/unmatched', ['ADMIN', 'OPS']],
  ['GET', '/api/admin/payments/unreconciled', ['ADMIN', 'OPS']],
  ['POST', '/api/admin/payments/1/match', ['ADMIN', 'OPS']],
]);
