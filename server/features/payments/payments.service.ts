import type { DbOrTx } from '../../../drizzle/db';
import { raiseAlert } from '../../../drizzle/outbox';
import { confirmedOrder } from '../../../shared/domain/payments';
import { canonicalPaymentMethod, MPESA_METHOD } from '../../../shared/payments';
import { ADMIN_ORDER_MESSAGES, type TReviewPaymentInput } from '../../../shared/schemas/admin-orders';
import {
  ORDER_MESSAGES,
  type TPaymentConfirmationInput,
  type TPaymentOutcome,
} from '../../../shared/schemas/orders';
import type { CtxUser } from '../../context';
import { appError } from '../../errors';
import { lockCustomerOrder, lockOrder } from '../orders/orders.queries';
import {
  insertPayment,
  insertPaymentOnce,
  latestSubmittedPayment,
  paymentWithReference,
  updateOrderPayment,
  updatePayment,
} from './payments.queries';

const outcome = (o: {
  status: TPaymentOutcome['status'];
  paymentStatus: TPaymentOutcome['paymentStatus'];
}) => ({
  status: o.status,
  paymentStatus: o.paymentStatus,
});

/** The customer's payment confirmation; the same reference twice is one record (a replay answers the first). */
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
    const isNew = await insertPaymentOnce(tx, {
      orderId: order.id,
      method,
      reference: input.reference,
      message: input.message || null,
      submittedById: customer.id,
    });
    if (!isNew) return outcome(order);
    if (order.status !== 'AWAITING_PAYMENT' && order.status !== 'PAYMENT_REVIEW') {
      throw appError('CONFLICT', ORDER_MESSAGES.paymentClosed);
    }
    const updated = await updateOrderPayment(tx, order.id, {
      status: 'PAYMENT_REVIEW',
      paymentStatus: 'SUBMITTED',
      updatedAt: now,
    });
    await raiseAlert(tx, { kind: 'payment.submitted', orderId: order.id });
    return outcome(updated);
  });
}

/**
 * Ops' review: confirm (the order is Received) or reject with a reason (back to Awaiting Payment). With no
 * confirmation to review, confirming records the reference ops was given (paid by phone or at the yard).
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
    const submitted = await latestSubmittedPayment(tx, order.id);
    const review = {
      reviewedById: reviewer.id,
      reviewedAt: now,
      reviewNote: input.note || null,
      updatedAt: now,
    };
    if (input.decision === 'reject') {
      if (!submitted) throw appError('CONFLICT', ADMIN_ORDER_MESSAGES.noPayment);
      await updatePayment(tx, submitted.id, { status: 'REJECTED', ...review });
      return outcome(
        await updateOrderPayment(tx, order.id, {
          status: 'AWAITING_PAYMENT',
          paymentStatus: 'REJECTED',
          updatedAt: now,
        }),
      );
    }
    if (submitted) {
      await updatePayment(tx, submitted.id, { status: 'CONFIRMED', ...review });
    } else {
      if (!input.reference) throw appError('CONFLICT', ADMIN_ORDER_MESSAGES.noPayment);
      const same = await paymentWithReference(tx, order.id, input.reference);
      if (same) await updatePayment(tx, same.id, { status: 'CONFIRMED', ...review });
      else
        await insertPayment(tx, {
          orderId: order.id,
          method: canonicalPaymentMethod(input.method ?? '') ?? MPESA_METHOD,
          reference: input.reference,
          status: 'CONFIRMED',
          source: 'OPS',
          submittedById: reviewer.id,
          ...review,
        });
    }
    return outcome(
      await updateOrderPayment(tx, order.id, { ...confirmedOrder(order.status), updatedAt: now }),
    );
  });
}
