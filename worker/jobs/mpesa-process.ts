import type { DbOrTx } from '../../drizzle/db';
import { raiseAlert } from '../../drizzle/outbox';
import { accountRefOf, parseAccountRef } from '../../shared/domain/mpesa';
import { confirmedOrder, settle } from '../../shared/domain/payments';
import {
  type C2bPayment,
  parseC2b,
  parseJson,
  parseStkCallback,
  parseStkQueryAnswer,
  type StkResult,
} from '../../shared/mpesa/callbacks';
import type { JobContext } from '../context';
import * as q from './mpesa-process.queries';

type Ctx = Pick<JobContext, 'db' | 'now'> & Partial<Pick<JobContext, 'attempt'>>;

export const MPESA_METHOD_CODE = 'MPESA';

/** What processing made of one callback. */
export type Outcome =
  | 'credited'
  | 'unmatched'
  | 'duplicate'
  | 'failed'
  | 'receipt-added'
  | 'unknown-prompt'
  | 'unreadable'
  | 'ignored';

/** A prompt's callback may beat the row the push writes by a moment: wait for it this many tries. */
const UNKNOWN_PROMPT_ATTEMPTS = 3;

export class PromptNotYetRecorded extends Error {}

/**
 * Processes one stored callback, once: the payment it carries is recorded (idempotent by receipt and
 * CheckoutRequestID) and settles its order, all in one transaction with the callback marked processed.
 */
export async function processCallback(ctx: Ctx, callbackId: number): Promise<{ outcome: Outcome | 'done' }> {
  return ctx.db.transaction(async (tx) => {
    const cb = await q.lockCallback(tx, callbackId);
    if (!cb || cb.processedAt) return { outcome: 'done' as const };
    const now = ctx.now();
    const body = parseJson(cb.body);
    let result: { outcome: Outcome; ref: string | null; error?: string };
    switch (cb.kind) {
      case 'STK':
      case 'STK_QUERY': {
        const stk = cb.kind === 'STK' ? parseStkCallback(body) : parseStkQueryAnswer(body);
        result = stk
          ? await applyStkResult(tx, stk, now, cb.receivedAt, ctx.attempt ?? 1)
          : { outcome: 'unreadable', ref: null, error: 'Not an STK result in the documented shape' };
        break;
      }
      case 'C2B_CONFIRMATION': {
        const c2b = parseC2b(body);
        result = c2b
          ? await applyC2b(tx, c2b, now)
          : { outcome: 'unreadable', ref: null, error: 'Not a C2B confirmation in the documented shape' };
        break;
      }
      default:
        result = { outcome: 'ignored', ref: null };
    }
    await q.markCallback(tx, cb.id, {
      processedAt: now,
      ref: result.ref,
      outcome: result.outcome,
      error: result.error ?? null,
    });
    return { outcome: result.outcome };
  });
}

async function applyStkResult(
  tx: DbOrTx,
  stk: StkResult,
  now: Date,
  receivedAt: Date,
  attempt: number,
): Promise<{ outcome: Outcome; ref: string | null }> {
  const ref = stk.checkoutRequestId;
  const request = await q.lockStkRequest(tx, stk.checkoutRequestId);
  const paid = stk.resultCode === '0';
  if (!request) {
    if (attempt < UNKNOWN_PROMPT_ATTEMPTS) throw new PromptNotYetRecorded(`No prompt ${ref} recorded yet`);
    if (!paid || !stk.amountCents) return { outcome: 'unknown-prompt', ref };
    // Money for a prompt we never recorded: keep it for ops to match.
    const payment = await q.insertPaymentOnce(tx, {
      ...stkPaymentValues(stk, stk.amountCents, now, receivedAt),
      orderId: null,
      status: 'CONFIRMED',
    });
    if (!payment) return { outcome: 'duplicate', ref };
    await raiseAlert(tx, { kind: 'payment.received', paymentId: payment.id });
    return { outcome: 'unmatched', ref };
  }
  if (request.status !== 'PENDING') {
    // A second delivery, or the callback after a status query already settled it: nothing is credited again.
    if (paid && stk.receipt) {
      const known = await q.paymentByCheckout(tx, ref);
      if (known && !known.mpesaReceipt && !(await q.paymentByReceipt(tx, stk.receipt))) {
        await q.updatePayment(tx, known.id, {
          mpesaReceipt: stk.receipt,
          reference: stk.receipt,
          paidAt: stk.paidAt ?? known.paidAt,
          updatedAt: now,
        });
        return { outcome: 'receipt-added', ref };
      }
    }
    return { outcome: 'duplicate', ref };
  }
  await q.updateStkRequest(tx, request.id, {
    status: paid ? 'PAID' : 'FAILED',
    resultCode: stk.resultCode,
    resultDesc: stk.resultDesc,
    merchantRequestId: request.merchantRequestId ?? stk.merchantRequestId,
    resolvedAt: now,
    updatedAt: now,
  });
  if (!paid) return { outcome: 'failed', ref };
  const payment = await q.insertPaymentOnce(tx, {
    ...stkPaymentValues(stk, stk.amountCents ?? request.amountCents, now, receivedAt),
    orderId: request.orderId,
    accountRef: accountRefOf(request.orderId),
    payerPhone: stk.payerPhone ?? request.phoneMasked,
    // Settled just below, in this transaction.
    status: 'SUBMITTED',
  });
  if (!payment) return { outcome: 'duplicate', ref };
  await settlePayment(tx, payment, request.orderId, now);
  return { outcome: 'credited', ref };
}

function stkPaymentValues(stk: StkResult, amountCents: number, now: Date, receivedAt: Date) {
  return {
    method: MPESA_METHOD_CODE,
    source: 'MPESA_STK' as const,
    reference: stk.receipt ?? stk.checkoutRequestId,
    mpesaReceipt: stk.receipt,
    checkoutRequestId: stk.checkoutRequestId,
    amountCents,
    paidAt: stk.paidAt ?? receivedAt,
    payerPhone: stk.payerPhone,
    createdAt: now,
    updatedAt: now,
  };
}

async function applyC2b(tx: DbOrTx, c2b: C2bPayment, now: Date): Promise<{ outcome: Outcome; ref: string }> {
  const ref = c2b.receipt;
  if (await q.paymentByReceipt(tx, c2b.receipt)) return { outcome: 'duplicate', ref };
  const typedId = parseAccountRef(c2b.accountRef);
  const orderId = typedId && (await q.orderExists(tx, typedId)) ? typedId : null;
  const facts = {
    amountCents: c2b.amountCents,
    mpesaReceipt: c2b.receipt,
    accountRef: c2b.accountRef,
    payerName: c2b.payerName,
    payerPhone: c2b.payerPhone,
    paidAt: c2b.paidAt ?? now,
    updatedAt: now,
  };
  if (orderId) {
    // The same money already known from a status query (no receipt then): this names its receipt.
    const awaiting = await q.paymentAwaitingReceipt(tx, orderId, c2b.amountCents);
    if (awaiting) {
      await q.updatePayment(tx, awaiting.id, {
        mpesaReceipt: c2b.receipt,
        reference: c2b.receipt,
        payerName: awaiting.payerName ?? c2b.payerName,
        updatedAt: now,
      });
      return { outcome: 'receipt-added', ref };
    }
    // The customer (or ops) typed this receipt already: M-Pesa now vouches for it.
    const typed = await q.typedPayment(tx, orderId, c2b.receipt);
    if (typed) {
      const updated = await q.updatePayment(tx, typed.id, {
        ...facts,
        source: 'MPESA_C2B',
        reference: c2b.receipt,
      });
      // Ops confirmed it by hand already: the order is settled; record the facts only.
      if (typed.status === 'CONFIRMED') return { outcome: 'duplicate', ref };
      await settlePayment(tx, updated, orderId, now);
      return { outcome: 'credited', ref };
    }
  }
  const payment = await q.insertPaymentOnce(tx, {
    ...facts,
    orderId,
    method: MPESA_METHOD_CODE,
    source: 'MPESA_C2B',
    reference: c2b.receipt,
    status: orderId ? 'SUBMITTED' : 'CONFIRMED',
    createdAt: now,
  });
  if (!payment) return { outcome: 'duplicate', ref };
  if (!orderId) {
    await raiseAlert(tx, { kind: 'payment.received', paymentId: payment.id });
    return { outcome: 'unmatched', ref };
  }
  await settlePayment(tx, payment, orderId, now);
  return { outcome: 'credited', ref };
}

/**
 * The one settlement of an M-Pesa payment against its order (under the order's row lock): the payment is
 * CONFIRMED with any credit beyond what was owed; a payment that clears the balance confirms the order's
 * payment and moves it to Received exactly as an ops confirmation does; a 'payment received' alert follows.
 */
export async function settlePayment(tx: DbOrTx, payment: q.PaymentRow, orderId: number, now: Date) {
  const order = await q.lockOrder(tx, orderId);
  if (!order || !payment.amountCents) return;
  const before = await q.paidBefore(tx, orderId, payment.id);
  const s = settle(
    {
      status: order.status,
      paymentStatus: order.paymentStatus,
      totalCents: order.totalCents,
      paidCents: before,
    },
    payment.amountCents,
  );
  await q.updatePayment(tx, payment.id, {
    orderId,
    status: 'CONFIRMED',
    creditCents: s.creditCents,
    updatedAt: now,
  });
  if (s.settles) await q.updateOrder(tx, orderId, { ...confirmedOrder(order.status), updatedAt: now });
  await raiseAlert(tx, { kind: 'payment.received', paymentId: payment.id });
}

/** A payment ops matched to an order by hand: settled by the same rule, once (`mpesa.settle`). */
export async function settleMatchedPayment(ctx: Pick<JobContext, 'db' | 'now'>, paymentId: number) {
  return ctx.db.transaction(async (tx) => {
    const payment = await q.lockPayment(tx, paymentId);
    // Settled already (a re-run job), or no longer matched.
    if (!payment?.orderId || payment.status !== 'SUBMITTED') return { settled: false };
    await settlePayment(tx, payment, payment.orderId, ctx.now());
    return { settled: true };
  });
}
