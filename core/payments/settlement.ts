import type { DbOrTx } from '../../drizzle/db';
import { raiseAlert, writeOutbox } from '../../drizzle/outbox';
import { accountRefOf } from '../../shared/domain/mpesa';
import { confirmedOrder, isMpesaMethod, settle } from '../../shared/domain/payments';
import { PAYMENT_MESSAGES } from '../../shared/schemas/payments';
import { lockAccount } from '../accounts/accounts.queries';
import { allocateAccountPayment } from '../accounts/accounts.service';
import { appError } from '../errors';
import { invoiceOrderPaid } from '../invoices/invoices.service';
import type { JobContext } from '../jobs/context';
import { lockOrder, type OrderRow } from '../orders/orders.queries';
import * as q from './payments.queries';

/** Who confirmed a payment by hand (ops' review), kept on it. */
export interface Review {
  reviewedById: number;
  reviewedAt: Date;
  reviewNote: string | null;
}

/** The unique index a receipt settling a second payment runs into (the check's backstop under a race). */
const SETTLED_RECEIPT_KEY = 'payments_settled_receipt_key';

function isSettledReceiptConflict(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 8; depth++) {
    const { code, constraint, constraint_name } = e as Record<string, unknown>;
    if (code === '23505' && (constraint === SETTLED_RECEIPT_KEY || constraint_name === SETTLED_RECEIPT_KEY))
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Ops' answer when the receipt already settled another payment: where it went, so they can check. */
function receiptTaken(holder: q.PaymentRow) {
  return appError(
    'CONFLICT',
    holder.orderId
      ? PAYMENT_MESSAGES.receiptSettled(accountRefOf(holder.orderId))
      : PAYMENT_MESSAGES.receiptUnmatched,
  );
}

/** The confirmed payment already holding this payment's M-Pesa receipt, if it names one. */
export function receiptHolder(db: DbOrTx, payment: Pick<q.PaymentRow, 'id' | 'method' | 'reference'>) {
  return isMpesaMethod(payment.method)
    ? q.settledReceiptHolder(db, payment.reference, payment.id)
    : Promise.resolve(undefined);
}

/**
 * The one settlement of a payment against its order: the typed confirmation ops review, an M-Pesa payment
 * (C2B, STK, status query) and one ops matched by hand all end here. The caller holds the order's row lock
 * (`lockOrder`) and read the payment after taking it, so nothing settles twice.
 *
 * The payment is CONFIRMED with any credit beyond what the order owed. A payment that clears the balance
 * confirms the order's payment and moves it to Received; so does ops' review, whatever the amount (ops vouch
 * for the order). M-Pesa's payments alert ops ('payment received'); a review does not. An M-Pesa receipt
 * that already settled another payment is refused (409 naming where it went).
 */
export async function settlePayment(
  tx: DbOrTx,
  order: OrderRow,
  payment: q.PaymentRow,
  now: Date,
  review?: Review,
): Promise<OrderRow> {
  // A re-run job or a second delivery: settled once already.
  if (payment.status === 'CONFIRMED' && payment.orderId === order.id && !review) return order;
  // An order on credit terms is invoiced per delivered load: its money goes to the customer's account.
  if (order.onTerms && order.customerId) {
    if (!payment.amountCents) throw appError('CONFLICT', PAYMENT_MESSAGES.onTermsNeedsAmount);
    await lockAccount(tx, order.customerId);
    await settleAccountPayment(tx, order.customerId, payment, now, review);
    return order;
  }
  const holder = await receiptHolder(tx, payment);
  if (holder) throw receiptTaken(holder);
  const before = await q.paidBefore(tx, order.id, payment.id);
  const s = payment.amountCents
    ? settle(
        {
          status: order.status,
          paymentStatus: order.paymentStatus,
          totalCents: order.totalCents,
          paidCents: before,
        },
        payment.amountCents,
      )
    : null;
  try {
    await q.updatePayment(tx, payment.id, {
      orderId: order.id,
      status: 'CONFIRMED',
      creditCents: s?.creditCents ?? 0,
      ...review,
      updatedAt: now,
    });
  } catch (err) {
    if (isSettledReceiptConflict(err)) throw appError('CONFLICT', PAYMENT_MESSAGES.receiptUsed);
    throw err;
  }
  let settled = order;
  if (review || !s || s.settles) {
    settled = await q.updateOrderPayment(tx, order.id, { ...confirmedOrder(order.status), updatedAt: now });
    // Paid in full: the invoice-able event of a cash order (its KRA eTIMS sale, issue 23).
    await invoiceOrderPaid(tx, order.id, now);
  }
  if (!review) await raiseAlert(tx, { kind: 'payment.received', paymentId: payment.id });
  // The customer is told what arrived (and the receipt once paid in full), however it was paid.
  await writeOutbox(tx, 'customer.notify', {
    event: 'payment.received',
    orderId: order.id,
    paymentId: payment.id,
  });
  return settled;
}

/**
 * The one settlement of a payment to a customer's account on terms (paybill account MCA<id>, the money
 * for one of its orders on terms, a bank transfer ops confirm): CONFIRMED on the account and allocated to
 * the invoice the payer named, then the oldest open ones; what is left stays as the account's credit. The
 * caller holds the account's row lock. An M-Pesa receipt that settled another payment is refused (409).
 */
export async function settleAccountPayment(
  tx: DbOrTx,
  customerId: number,
  payment: q.PaymentRow,
  now: Date,
  review?: Review,
): Promise<void> {
  if (payment.status === 'CONFIRMED' && payment.accountCustomerId === customerId) return;
  const holder = await receiptHolder(tx, payment);
  if (holder) throw receiptTaken(holder);
  let confirmed: q.PaymentRow;
  try {
    confirmed = await q.updatePayment(tx, payment.id, {
      accountCustomerId: customerId,
      status: 'CONFIRMED',
      creditCents: 0,
      ...review,
      updatedAt: now,
    });
  } catch (err) {
    if (isSettledReceiptConflict(err)) throw appError('CONFLICT', PAYMENT_MESSAGES.receiptUsed);
    throw err;
  }
  await allocateAccountPayment(
    tx,
    customerId,
    { id: confirmed.id, amountCents: confirmed.amountCents ?? 0, namedInvoiceId: confirmed.namedInvoiceId },
    now,
  );
  if (!review) await raiseAlert(tx, { kind: 'payment.received', paymentId: payment.id });
}

/**
 * A payment ops matched to an order by hand, settled by the same rule, once (`mpesa.settle`; matching
 * settles at once now, so this only finishes jobs written before).
 */
export async function settleMatchedPayment(ctx: Pick<JobContext, 'db' | 'now'>, paymentId: number) {
  return ctx.db.transaction(async (tx) => {
    const seen = await q.findPayment(tx, paymentId);
    const order = seen?.orderId ? await lockOrder(tx, seen.orderId) : undefined;
    const payment = order && (await q.lockPayment(tx, paymentId));
    // Settled already (a re-run job), or no longer matched.
    if (!order || payment?.orderId !== order.id || payment.status !== 'SUBMITTED') return { settled: false };
    await settlePayment(tx, order, payment, ctx.now());
    return { settled: true };
  });
}
