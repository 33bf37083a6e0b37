import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mpesaCallbacks, mpesaStkRequests, orders, outbox, payments } from '../../drizzle/schema';
import { makeOrder } from '../../test/factories';
import { c2b, checkoutRequestId, receipt, stkFailure, stkSuccess } from '../../test/fixtures/daraja';
import { createTestApp, type TestApp } from '../../test/helpers';
import { processCallback } from './callbacks';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const ctx = () => ({ db: t.database.db, now: () => new Date() });

async function storeCallback(kind: 'STK' | 'C2B_CONFIRMATION', body: unknown): Promise<number> {
  const [row] = await t.database.db
    .insert(mpesaCallbacks)
    .values({ kind, body: JSON.stringify(body), receivedAt: new Date() })
    .returning({ id: mpesaCallbacks.id });
  return row!.id;
}

async function receivedAlerts(paymentIds: number[]) {
  const rows = await t.database.db
    .select({ payload: outbox.payload })
    .from(outbox)
    .where(sql`${outbox.payload}->>'kind' = 'payment.received'`);
  return rows.filter((r) => paymentIds.includes((r.payload as { paymentId: number }).paymentId)).length;
}

describe('a typed receipt, then its C2B confirmation delivered twice at once', () => {
  it('settles the payment once: no credit, one alert (10 trials)', async () => {
    const phantom: number[] = [];
    for (let trial = 0; trial < 10; trial++) {
      const customer = await t.signIn('CUSTOMER');
      const order = await makeOrder(t.database.db, { customerId: customer.user.id });
      const typed = receipt();
      const res = await t.call('POST', `/api/orders/${order.id}/payment`, customer, {
        method: 'M-Pesa',
        reference: typed,
      });
      expect(res.statusCode).toBe(200);
      const body = c2b({ account: `MCH${order.id}`, amountKes: 32_000, receipt: typed });
      const ids = [
        await storeCallback('C2B_CONFIRMATION', body),
        await storeCallback('C2B_CONFIRMATION', body),
      ];
      await Promise.all(ids.map((id) => processCallback(ctx(), id)));
      const rows = await t.database.db.select().from(payments).where(eq(payments.orderId, order.id));
      expect(rows).toHaveLength(1);
      const credit = rows.reduce((s, p) => s + p.creditCents, 0);
      const alerts = await receivedAlerts(rows.map((p) => p.id));
      if (credit > 0 || alerts !== 1) phantom.push(trial);
    }
    expect(phantom, `trials with a phantom credit or a doubled alert: ${phantom.length}/10`).toEqual([]);
  });
});

async function promptFor(orderId: number, amountKes: number) {
  const checkout = checkoutRequestId();
  await t.database.db.insert(mpesaStkRequests).values({
    orderId,
    checkoutRequestId: checkout,
    amountCents: amountKes * 100,
    phoneMasked: '2547 ***** 678',
  });
  return checkout;
}

const orderOf = async (id: number) =>
  (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;

describe('a late success after a failure result for the same prompt', () => {
  it('is applied: the prompt is paid, the payment recorded and the order settled', async () => {
    const order = await makeOrder(t.database.db);
    const checkout = await promptFor(order.id, 32_000);
    await processCallback(ctx(), await storeCallback('STK', stkFailure(1037, checkout)));
    const paidReceipt = receipt();
    const late = stkSuccess({ checkoutRequestId: checkout, amountKes: 32_000, receipt: paidReceipt });
    expect(await processCallback(ctx(), await storeCallback('STK', late))).toEqual({ outcome: 'credited' });
    expect(await orderOf(order.id)).toMatchObject({ status: 'RECEIVED', paymentStatus: 'CONFIRMED' });
    const [prompt] = await t.database.db
      .select()
      .from(mpesaStkRequests)
      .where(eq(mpesaStkRequests.checkoutRequestId, checkout));
    expect(prompt).toMatchObject({ status: 'PAID', resultCode: '0' });
    expect(await t.database.db.select().from(payments).where(eq(payments.orderId, order.id))).toEqual([
      expect.objectContaining({ mpesaReceipt: paidReceipt, status: 'CONFIRMED', creditCents: 0 }),
    ]);
  });
});

describe('the C2B confirmation of a prompt arrives before its STK callback', () => {
  it('credits once, and the prompt shows the receipt', async () => {
    const customer = await t.signIn('CUSTOMER');
    const order = await makeOrder(t.database.db, { customerId: customer.user.id });
    const checkout = await promptFor(order.id, 32_000);
    const paidReceipt = receipt();
    const first = c2b({ account: `MCH${order.id}`, amountKes: 32_000, receipt: paidReceipt });
    expect(await processCallback(ctx(), await storeCallback('C2B_CONFIRMATION', first))).toEqual({
      outcome: 'credited',
    });
    const stk = stkSuccess({ checkoutRequestId: checkout, amountKes: 32_000, receipt: paidReceipt });
    await processCallback(ctx(), await storeCallback('STK', stk));
    const rows = await t.database.db.select().from(payments).where(eq(payments.orderId, order.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.creditCents).toBe(0);
    const status = await t.call('GET', `/api/orders/${order.id}/mpesa/stk/${checkout}`, customer);
    expect(status.json()).toMatchObject({ status: 'PAID', receipt: paidReceipt });
  });
});
