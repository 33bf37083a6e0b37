import type { DbOrTx } from '../../drizzle/db';
import { raiseAlert } from '../../drizzle/outbox';
import { CONFIRMATIONS_PER_ORDER, confirmationWait } from '../../shared/domain/payments';
import { isUnpaidOrder } from '../../shared/enums';
import { canonicalPaymentMethod, MPESA_METHOD } from '../../shared/payments';
import { ADMIN_ORDER_MESSAGES, type TReviewPaymentInput } from '../../shared/schemas/admin-orders';
import {
  ORDER_MESSAGES,
  type TPaymentConfirmationInput,
  type TPaymentOutcome,
} from '../../shared/schemas/orders';
import { PAYMENT_MESSAGES } from '../../shared/schemas/payments';
import type { CtxUser } from '../access/actor';
import { nothingChanged, recordChange } from '../activity/activity';
import { appError } from '../errors';
import { lockCustomerOrder, lockOrder } from '../orders/orders.queries';
import * as q from './payments.queries';
import { receiptHolder, settlePayment } from './settlement';

const outcome = (o: {
  status: TPaymentOutcome['status'];
  paymentStatus: TPaymentOutcome['paymentStatus'];
}) => ({
  status: o.status,
  paymentStatus: o.paymentStatus,
});

/** What the action log shows of an order's payment. */
const paymentState = (o: { status: string; paymentStatus: string }) => ({
  status: o.status,
  paymentStatus: o.paymentStatus,
});

/**
 * The customer's payment confirmation; the same reference twice is one record (a replay answers the first).
 * An M-Pesa receipt that already paid another order is refused, and an order takes at most
 * CONFIRMATIONS_PER_ORDER new ones a day (429 with Retry-After after that).
 */
export async function confirmPayment(
  db: DbOrTx,
  customer: CtxUser,
  input: TPaymentConfirmationInput,
  now: Date,
): Promise<TPaymentOutcome> {
  const method = canonicalPaymentMethod(input.method);
  if (!method) throw appError('BAD_REQUEST', ORDER_MESSAGES.methodInvalid);
  return db.transaction(async (tx) => {
    const order = await lockCustomerOrder(tx, customer.id, input.id);
    if (!order) throw appError('NOT_FOUND', ORDER_MESSAGES.orderNotFound);
    if (await q.paymentWithReference(tx, order.id, input.reference)) {
      nothingChanged();
      return outcome(order);
    }
    if (!isUnpaidOrder(order.status)) {
      throw appError('CONFLICT', ORDER_MESSAGES.paymentClosed);
    }
    const typed = { id: 0, method, reference: input.reference };
    const holder = await receiptHolder(tx, typed);
    // Money M-Pesa credited to another order; one still unmatched is the customer's to claim (ops match it).
    if (holder?.orderId && holder.orderId !== order.id)
      throw appError('CONFLICT', PAYMENT_MESSAGES.receiptUsed);
    const wait = confirmationWait(
      await q.customerConfirmationsSince(
        tx,
        order.id,
        new Date(now.getTime() - CONFIRMATIONS_PER_ORDER.windowMs),
      ),
      now,
    );
    if (wait !== null)
      throw appError(
        'TOO_MANY_REQUESTS',
        PAYMENT_MESSAGES.tooManyConfirmations(Math.ceil(wait / 60)),
        undefined,
        {
          'retry-after': String(wait),
        },
      );
    const isNew = await q.insertPaymentOnce(tx, {
      orderId: order.id,
      method,
      reference: input.reference,
      message: input.message || null,
      submittedById: customer.id,
      createdAt: now,
      updatedAt: now,
    });
    if (!isNew) {
      nothingChanged();
      return outcome(order);
    }
    const updated = await q.updateOrderPayment(tx, order.id, {
      status: 'PAYMENT_REVIEW',
      paymentStatus: 'SUBMITTED',
      updatedAt: now,
    });
    await raiseAlert(tx, { kind: 'payment.submitted', orderId: order.id });
    await recordChange(tx, {
      entity: 'order',
      entityId: order.id,
      before: paymentState(order),
      after: { ...paymentState(updated), paymentMethod: method, paymentReference: input.reference },
    });
    return outcome(updated);
  });
}

/**
 * Ops' review: confirm (the order is Received) or reject with a reason (back to Awaiting Payment). With no
 * confirmation to review, confirming records the reference ops was given (paid by phone or at the yard).
 * Confirming settles by the one rule (`settlePayment`), which refuses a receipt that paid another order.
 */
export async function reviewPayment(
  db: DbOrTx,
  reviewer: CtxUser,
  input: TReviewPaymentInput,
  now: Date,
): Promise<TPaymentOutcome> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, input.id);
    if (!order) throw appError('NOT_FOUND', ADMIN_ORDER_MESSAGES.orderNotFound);
    if (order.paymentStatus === 'CONFIRMED') throw appError('CONFLICT', ADMIN_ORDER_MESSAGES.paymentReviewed);
    const submitted = await q.latestSubmittedPayment(tx, order.id);
    const review = { reviewedById: reviewer.id, reviewedAt: now, reviewNote: input.note || null };
    if (input.decision === 'reject') {
      if (!submitted) throw appError('CONFLICT', ADMIN_ORDER_MESSAGES.noPayment);
      await q.updatePayment(tx, submitted.id, { status: 'REJECTED', ...review, updatedAt: now });
      const rejected = await q.updateOrderPayment(tx, order.id, {
        status: 'AWAITING_PAYMENT',
        paymentStatus: 'REJECTED',
        updatedAt: now,
      });
      await recordChange(tx, {
        entity: 'order',
        entityId: order.id,
        before: paymentState(order),
        after: {
          ...paymentState(rejected),
          reviewNote: review.reviewNote,
          paymentReference: submitted.reference,
        },
      });
      return outcome(rejected);
    }
    const payment =
      submitted ??
      (input.reference
        ? await recorded(tx, reviewer, order.id, input.reference, input.method, now)
        : undefined);
    if (!payment) throw appError('CONFLICT', ADMIN_ORDER_MESSAGES.noPayment);
    const settled = await settlePayment(tx, order, payment, now, review);
    await recordChange(tx, {
      entity: 'order',
      entityId: order.id,
      before: paymentState(order),
      after: { ...paymentState(settled), reviewNote: review.reviewNote, paymentReference: payment.reference },
    });
    return outcome(settled);
  });
}

/** The payment ops confirm from a reference they were given: the order's own with it, or a new one. */
async function recorded(
  tx: DbOrTx,
  reviewer: CtxUser,
  orderId: number,
  reference: string,
  method: string | undefined,
  now: Date,
) {
  return (
    (await q.paymentWithReference(tx, orderId, reference)) ??
    (await q.insertPaymentOnce(tx, {
      orderId,
      method: canonicalPaymentMethod(method ?? '') ?? MPESA_METHOD,
      reference,
      source: 'OPS',
      submittedById: reviewer.id,
      createdAt: now,
      updatedAt: now,
    }))
  );
}
