import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, payments } from '../../../drizzle/schema';
import { makeOrder } from '../../../test/factories';
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
