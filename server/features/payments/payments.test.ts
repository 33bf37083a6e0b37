import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processCallback } from '../../../core/mpesa/callbacks';
import { mpesaCallbacks, orders, outbox, payments } from '../../../drizzle/schema';
import { CONFIRMATIONS_PER_ORDER } from '../../../shared/domain/payments';
import { PAYMENT_MESSAGES } from '../../../shared/schemas/payments';
import { makeOrder } from '../../../test/factories';
import { c2b, receipt } from '../../../test/fixtures/daraja';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/helpers';
import { describeRoleMatrix } from '../../../test/role-matrix';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function customerWithOrder(over: Parameters<typeof makeOrder>[1] = {}) {
  const customer = await t.signIn('CUSTOMER');
  const order = await makeOrder(t.database.db, { customerId: customer.user.id, ...over });
  return { customer, order };
}

const confirm = (who: SignedIn | null, orderId: number, body: Record<string, unknown>) =>
  t.call('POST', `/api/orders/${orderId}/payment`, who, body);
const review = (who: SignedIn, orderId: number, body: Record<string, unknown>) =>
  t.call('POST', `/api/admin/orders/${orderId}/payment-review`, who, body);

async function submittedAlerts(orderId: number) {
  const rows = await t.database.db
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        sql`${outbox.payload}->>'kind' = 'payment.submitted'`,
        sql`(${outbox.payload}->>'orderId')::int = ${orderId}`,
      ),
    );
  return rows.length;
}

describe('payment confirmation (customer)', () => {
  it('validates, then records one payment per reference and moves the order to review', async () => {
    const { customer, order } = await customerWithOrder();
    const missingRef = await confirm(customer, order.id, { method: 'Equity', reference: ' ' });
    expect(missingRef.statusCode).toBe(400);
    expect(missingRef.json()).toEqual({ error: 'Payment reference is required.' });
    const badMethod = await confirm(customer, order.id, { method: 'Barclays', reference: 'X1' });
    expect(badMethod.statusCode).toBe(400);
    expect(badMethod.json()).toEqual({ error: 'Choose one of the listed banks or M-Pesa paybill.' });

    const body = { method: 'co-operative', reference: 'QWE123XYZ', message: 'Paid via app' };
    const first = await confirm(customer, order.id, body);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ status: 'PAYMENT_REVIEW', paymentStatus: 'SUBMITTED' });
    const again = await confirm(customer, order.id, { ...body, reference: 'qwe123xyz' });
    expect(again.json()).toEqual({ status: 'PAYMENT_REVIEW', paymentStatus: 'SUBMITTED' });
    const stored = await t.database.db.select().from(payments).where(eq(payments.orderId, order.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      method: 'Cooperative',
      reference: 'QWE123XYZ',
      message: 'Paid via app',
      status: 'SUBMITTED',
      submittedById: customer.user.id,
    });
    // One alert for the new confirmation, none for its replay.
    expect(await submittedAlerts(order.id)).toBe(1);
  });

  it("answers another customer's order exactly like an unknown one (404), and anonymous callers 401", async () => {
    const { customer: owner, order } = await customerWithOrder();
    const other = await t.signIn('CUSTOMER');
    const stranger = await confirm(other, order.id, { method: 'KCB', reference: 'ABC' });
    const unknown = await confirm(owner, 999999, { method: 'KCB', reference: 'ABC' });
    expect(stranger.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'Order not found.' });
    expect(stranger.json()).toEqual(unknown.json());
    expect((await confirm(null, order.id, { method: 'KCB', reference: 'ABC' })).statusCode).toBe(401);
    expect(await t.database.db.select().from(payments).where(eq(payments.orderId, order.id))).toEqual([]);
  });

  it('refuses a new reference once the order is past payment (409)', async () => {
    const { customer, order } = await customerWithOrder({ status: 'DELIVERED', paymentStatus: 'CONFIRMED' });
    const res = await confirm(customer, order.id, { method: 'KCB', reference: 'LATE-1' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'This order no longer takes payment confirmations.' });
    expect(await t.database.db.select().from(payments).where(eq(payments.orderId, order.id))).toEqual([]);
  });
});

describe('payment review (ADMIN)', () => {
  it('rejects with a reason (back to Awaiting Payment), then confirms the next submission (Received)', async () => {
    const admin = await t.signIn('ADMIN');
    const { customer, order } = await customerWithOrder();
    await confirm(customer, order.id, { method: 'Equity', reference: 'EQ-555' });

    const noReason = await review(admin, order.id, { decision: 'reject' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toEqual({ error: 'Give a reason for rejecting the payment.' });
    const rejected = await review(admin, order.id, { decision: 'reject', note: 'Not received' });
    expect(rejected.json()).toEqual({ status: 'AWAITING_PAYMENT', paymentStatus: 'REJECTED' });

    await confirm(customer, order.id, { method: 'Equity', reference: 'EQ-556' });
    const confirmed = await review(admin, order.id, { decision: 'confirm' });
    expect(confirmed.json()).toEqual({ status: 'RECEIVED', paymentStatus: 'CONFIRMED' });
    const stored = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.orderId, order.id))
      .orderBy(payments.id);
    expect(stored).toEqual([
      expect.objectContaining({ reference: 'EQ-555', status: 'REJECTED', reviewNote: 'Not received' }),
      expect.objectContaining({ reference: 'EQ-556', status: 'CONFIRMED', reviewedById: admin.user.id }),
    ]);

    const twice = await review(admin, order.id, { decision: 'confirm' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ error: 'This payment has already been reviewed.' });
  });

  it('records a payment taken by phone from its reference, and asks for one when there is none', async () => {
    const admin = await t.signIn('ADMIN');
    const order = await makeOrder(t.database.db);
    const noPayment = await review(admin, order.id, { decision: 'confirm' });
    expect(noPayment.statusCode).toBe(409);
    expect(noPayment.json()).toEqual({
      error: 'There is no payment confirmation to review. Enter the payment reference to record it.',
    });
    const noRejection = await review(admin, order.id, { decision: 'reject', note: 'Nothing came in' });
    expect(noRejection.statusCode).toBe(409);

    const byPhone = await review(admin, order.id, {
      decision: 'confirm',
      method: 'M-Pesa',
      reference: 'MPESA123',
    });
    expect(byPhone.json()).toEqual({ status: 'RECEIVED', paymentStatus: 'CONFIRMED' });
    const [stored] = await t.database.db.select().from(payments).where(eq(payments.orderId, order.id));
    expect(stored).toMatchObject({
      method: 'M-Pesa paybill',
      reference: 'MPESA123',
      status: 'CONFIRMED',
      source: 'OPS',
      submittedById: admin.user.id,
    });
  });

  it('answers an unknown order with 404', async () => {
    const admin = await t.signIn('ADMIN');
    const res = await review(admin, 99999, { decision: 'confirm' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Order not found.' });
  });
});

describeRoleMatrix('payments', () => t, [
  ['POST', '/api/orders/1/payment', ['CUSTOMER']],
  ['POST', '/api/admin/orders/1/payment-review', ['ADMIN']],
]);

/** M-Pesa reports a paybill payment of `amountKes` to order `orderId` with this receipt (processed at once). */
async function mpesaPaid(orderId: number, paidReceipt: string, amountKes = 32_000) {
  const [cb] = await t.database.db
    .insert(mpesaCallbacks)
    .values({
      kind: 'C2B_CONFIRMATION',
      body: JSON.stringify(c2b({ account: `MCH${orderId}`, amountKes, receipt: paidReceipt })),
      receivedAt: new Date(),
    })
    .returning({ id: mpesaCallbacks.id });
  return processCallback({ db: t.database.db, now: () => new Date() }, cb!.id);
}

describe('one receipt settles one payment', () => {
  it('refuses a receipt already credited to another order when the customer types it', async () => {
    const { order: paid } = await customerWithOrder();
    const used = receipt();
    expect(await mpesaPaid(paid.id, used)).toEqual({ outcome: 'credited' });
    const { customer, order } = await customerWithOrder();
    const res = await confirm(customer, order.id, { method: 'M-Pesa', reference: used.toLowerCase() });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: PAYMENT_MESSAGES.receiptUsed });
    expect(await t.database.db.select().from(payments).where(eq(payments.orderId, order.id))).toEqual([]);
  });

  it('warns ops (409) instead of confirming a typed receipt that M-Pesa credited to another order', async () => {
    const admin = await t.signIn('ADMIN');
    const { customer, order } = await customerWithOrder();
    const used = receipt();
    await confirm(customer, order.id, { method: 'M-Pesa', reference: used });
    const { order: paid } = await customerWithOrder();
    expect(await mpesaPaid(paid.id, used)).toEqual({ outcome: 'credited' });
    const res = await review(admin, order.id, { decision: 'confirm' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: PAYMENT_MESSAGES.receiptSettled(`MCH${paid.id}`) });
    const byHand = await review(admin, order.id, { decision: 'confirm', method: 'M-Pesa', reference: used });
    expect(byHand.statusCode).toBe(409);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row).toMatchObject({ status: 'PAYMENT_REVIEW', paymentStatus: 'SUBMITTED' });
  });

  it('points ops at the unmatched list for a typed receipt whose money came to no order, and matching settles it once', async () => {
    const admin = await t.signIn('ADMIN');
    const { customer, order } = await customerWithOrder();
    const used = receipt();
    await confirm(customer, order.id, { method: 'M-Pesa', reference: used });
    const [cb] = await t.database.db
      .insert(mpesaCallbacks)
      .values({
        kind: 'C2B_CONFIRMATION',
        body: JSON.stringify(c2b({ account: 'MCHANGA', amountKes: 32_000, receipt: used })),
        receivedAt: new Date(),
      })
      .returning({ id: mpesaCallbacks.id });
    expect(await processCallback({ db: t.database.db, now: () => new Date() }, cb!.id)).toEqual({
      outcome: 'unmatched',
    });
    const res = await review(admin, order.id, { decision: 'confirm' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: PAYMENT_MESSAGES.receiptUnmatched });
    const [waiting] = await t.database.db.select().from(payments).where(eq(payments.mpesaReceipt, used));
    const matched = await t.call('POST', `/api/admin/payments/${waiting!.id}/match`, admin, {
      orderId: order.id,
    });
    expect(matched.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row).toMatchObject({ status: 'RECEIVED', paymentStatus: 'CONFIRMED' });
    expect(await t.database.db.select().from(payments).where(eq(payments.orderId, order.id))).toEqual([
      expect.objectContaining({
        mpesaReceipt: used,
        status: 'CONFIRMED',
        amountCents: 3_200_000,
        creditCents: 0,
      }),
    ]);
  });

  it('keeps the same receipt from settling twice even when a check is skipped (unique in the database)', async () => {
    const { order: a } = await customerWithOrder();
    const { order: b } = await customerWithOrder();
    const used = receipt();
    const row = {
      method: 'M-Pesa paybill',
      reference: used,
      status: 'CONFIRMED' as const,
      source: 'OPS' as const,
    };
    await t.database.db.insert(payments).values({ ...row, orderId: a.id });
    await expect(
      t.database.db.insert(payments).values({ ...row, orderId: b.id, reference: used.toLowerCase() }),
    ).rejects.toThrow();
  });
});

describe('payment confirmations per order', () => {
  it(`takes ${CONFIRMATIONS_PER_ORDER.count} new ones a day, then answers 429 with Retry-After (no alert)`, async () => {
    const { customer, order } = await customerWithOrder();
    const answers: number[] = [];
    for (let i = 0; i < 50; i++)
      answers.push((await confirm(customer, order.id, { method: 'KCB', reference: `KCB-${i}` })).statusCode);
    expect(answers.filter((s) => s === 200)).toHaveLength(CONFIRMATIONS_PER_ORDER.count);
    expect(answers.slice(CONFIRMATIONS_PER_ORDER.count).every((s) => s === 429)).toBe(true);
    const refused = await confirm(customer, order.id, { method: 'KCB', reference: 'KCB-late' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error).toMatch(/^Too many payment confirmations for this order\./);
    expect(await submittedAlerts(order.id)).toBe(CONFIRMATIONS_PER_ORDER.count);
    // A replay of one already taken still answers the first result.
    expect((await confirm(customer, order.id, { method: 'KCB', reference: 'KCB-0' })).statusCode).toBe(200);
  });
});
