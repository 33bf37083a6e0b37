import type { DbOrTx } from '../../drizzle/db';
import { raiseAlert } from '../../drizzle/outbox';
import { parseCustomerAccountRef } from '../../shared/domain/accounts';
import { accountRefOf, parseAccountRef } from '../../shared/domain/mpesa';
import { MPESA_REPORTED_METHOD } from '../../shared/domain/payments';
import {
  type C2bPayment,
  parseC2b,
  parseJson,
  parseStkCallback,
  parseStkQueryAnswer,
  type StkResult,
} from '../../shared/mpesa/callbacks';
import { lockAccount } from '../accounts/accounts.queries';
import type { JobContext } from '../jobs/context';
import { lockOrder, type OrderRow } from '../orders/orders.queries';
import * as pq from '../payments/payments.queries';
import { settleAccountPayment, settlePayment } from '../payments/settlement';
import * as q from './mpesa.queries';

type Ctx = Pick<JobContext, 'db' | 'now'> & Partial<Pick<JobContext, 'attempt'>>;

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

type Result = { outcome: Outcome; ref: string | null; error?: string };

/** A prompt's callback may beat the row the push writes by a moment: wait for it this many tries. */
const UNKNOWN_PROMPT_ATTEMPTS = 3;

export class PromptNotYetRecorded extends Error {}

/**
 * Processes one stored callback, once: the payment it carries is recorded and settles its order, all in
 * one transaction with the callback marked processed.
 *
 * What is the same money: one M-Pesa receipt is one payment wherever it is reported (C2B confirmation, STK
 * callback, the receipt a customer typed, one ops confirmed); a prompt is paid once (CheckoutRequestID).
 * Whatever reports it second adds what it knows (the receipt, the prompt) to the payment already recorded.
 * Every settlement runs under its order's row lock, so two deliveries processed at once queue up there and
 * the second finds the first's payment.
 */
export async function processCallback(ctx: Ctx, callbackId: number): Promise<{ outcome: Outcome | 'done' }> {
  return ctx.db.transaction(async (tx) => {
    const cb = await q.lockCallback(tx, callbackId);
    if (!cb || cb.processedAt) return { outcome: 'done' as const };
    const now = ctx.now();
    const body = parseJson(cb.body);
    let result: Result;
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
): Promise<Result> {
  const ref = stk.checkoutRequestId;
  const request = await q.lockStkRequest(tx, stk.checkoutRequestId);
  const paid = stk.resultCode === '0';
  if (!request) {
    if (attempt < UNKNOWN_PROMPT_ATTEMPTS) throw new PromptNotYetRecorded(`No prompt ${ref} recorded yet`);
    if (!paid || !stk.amountCents) return { outcome: 'unknown-prompt', ref };
    // Money for a prompt we never recorded: keep it for ops to match.
    const payment = await pq.insertPaymentOnce(tx, {
      ...stkPaymentValues(stk, stk.amountCents, now, receivedAt),
      orderId: null,
      status: 'CONFIRMED',
    });
    if (!payment) return { outcome: 'duplicate', ref };
    await raiseAlert(tx, { kind: 'payment.received', paymentId: payment.id });
    return { outcome: 'unmatched', ref };
  }
  if (!paid) {
    // A failure after any result changes nothing (a success after a failure does: see below).
    if (request.status !== 'PENDING') return { outcome: 'duplicate', ref };
    await q.updateStkRequest(tx, request.id, { ...resultOf(stk, request, now), status: 'FAILED' });
    return { outcome: 'failed', ref };
  }
  if (request.status === 'PAID') return receiptOfSettledPrompt(tx, stk, now);

  // Paid: the prompt was pending, or Daraja sends the success after a failure result (a timeout, 1037,
  // then the customer completed it). Either way the money moved.
  const order = await lockOrder(tx, request.orderId);
  await q.updateStkRequest(tx, request.id, { ...resultOf(stk, request, now), status: 'PAID' });
  if (!order) return { outcome: 'unknown-prompt', ref };
  const amountCents = stk.amountCents ?? request.amountCents;
  const known = await recordedAlready(tx, stk, order, amountCents, request.createdAt, now);
  if (known) return { outcome: known, ref };
  const payment = await pq.insertPaymentOnce(tx, {
    ...stkPaymentValues(stk, amountCents, now, receivedAt),
    orderId: order.id,
    accountRef: accountRefOf(order.id),
    payerPhone: stk.payerPhone ?? request.phoneMasked,
  });
  if (!payment) return { outcome: 'duplicate', ref };
  await settlePayment(tx, order, payment, now);
  return { outcome: 'credited', ref };
}

function resultOf(stk: StkResult, request: q.StkRequestRow, now: Date) {
  return {
    resultCode: stk.resultCode,
    resultDesc: stk.resultDesc,
    merchantRequestId: request.merchantRequestId ?? stk.merchantRequestId,
    resolvedAt: now,
    updatedAt: now,
  };
}

/**
 * A second delivery of a paid prompt, or its callback after a status query settled it: nothing is credited
 * again, but the callback names the receipt the query could not.
 */
async function receiptOfSettledPrompt(tx: DbOrTx, stk: StkResult, now: Date): Promise<Result> {
  const ref = stk.checkoutRequestId;
  if (stk.receipt) {
    const known = await pq.paymentByCheckout(tx, ref);
    if (known && !known.mpesaReceipt && !(await pq.paymentByReceipt(tx, stk.receipt)))
      return {
        outcome: await addReceipt(tx, known, stk.receipt, { paidAt: stk.paidAt ?? known.paidAt }, now),
        ref,
      };
  }
  return { outcome: 'duplicate', ref };
}

/**
 * The prompt's money when another report recorded it first: its receipt came by C2B (credited to the
 * order, or unmatched when the payer's account number was wrong: the prompt names the order, so it settles
 * there now), or a status query names no receipt and the order's C2B payment of that amount since the
 * prompt is the same money. Undefined when it is new.
 */
async function recordedAlready(
  tx: DbOrTx,
  stk: StkResult,
  order: OrderRow,
  amountCents: number,
  sentAt: Date,
  now: Date,
): Promise<Outcome | undefined> {
  if (!stk.receipt) {
    const c2b = await pq.awaitingOtherReport(tx, order.id, amountCents, { promptSentAt: sentAt });
    if (!c2b) return undefined;
    await pq.updatePayment(tx, c2b.id, { checkoutRequestId: stk.checkoutRequestId, updatedAt: now });
    return 'duplicate';
  }
  const known = await pq.paymentByReceipt(tx, stk.receipt);
  if (known?.orderId === null) {
    await settlePayment(tx, order, await pq.updatePayment(tx, known.id, { status: 'SUBMITTED' }), now);
    return 'credited';
  }
  if (known) return 'duplicate';
  return (await recordOnHolder(tx, stk.receipt, { mpesaReceipt: stk.receipt, updatedAt: now }))
    ? 'duplicate'
    : undefined;
}

/** A payment known without its receipt (from a status query): the report that names it adds it. */
async function addReceipt(
  tx: DbOrTx,
  payment: pq.PaymentRow,
  receipt: string,
  more: Partial<pq.PaymentRow>,
  now: Date,
): Promise<'receipt-added'> {
  await pq.updatePayment(tx, payment.id, {
    mpesaReceipt: receipt,
    reference: receipt,
    ...more,
    updatedAt: now,
  });
  return 'receipt-added';
}

/**
 * The receipt typed on a payment ops confirmed by hand (any order): M-Pesa now vouches for it. Its facts
 * are recorded there and nothing is credited again. False when no confirmed payment holds it.
 */
async function recordOnHolder(tx: DbOrTx, receipt: string, facts: Partial<pq.PaymentRow>): Promise<boolean> {
  const holder = await pq.settledReceiptHolder(tx, receipt);
  if (!holder) return false;
  if (!holder.mpesaReceipt) await pq.updatePayment(tx, holder.id, { ...facts, reference: receipt });
  return true;
}

function stkPaymentValues(stk: StkResult, amountCents: number, now: Date, receivedAt: Date) {
  return {
    method: MPESA_REPORTED_METHOD,
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

/** What a C2B confirmation says of the money, as a payment row records it (to an order or an account). */
function c2bFacts(c2b: C2bPayment, now: Date) {
  return {
    amountCents: c2b.amountCents,
    mpesaReceipt: c2b.receipt,
    accountRef: c2b.accountRef,
    payerName: c2b.payerName,
    payerPhone: c2b.payerPhone,
    paidAt: c2b.paidAt ?? now,
    updatedAt: now,
  };
}

/**
 * A paybill payment to a customer's account number (`MCA<customer id>`): recorded once per receipt on the
 * account (taken under its lock) and settled there, paying its oldest open invoices. Undefined when no
 * such account exists: the payment then waits in the unmatched list like any unknown account number.
 */
async function applyAccountC2b(tx: DbOrTx, c2b: C2bPayment, now: Date): Promise<Result | undefined> {
  const customerId = parseCustomerAccountRef(c2b.accountRef);
  const account = customerId ? await lockAccount(tx, customerId) : undefined;
  if (!account) return undefined;
  const ref = c2b.receipt;
  if (await pq.paymentByReceipt(tx, ref)) return { outcome: 'duplicate', ref };
  const facts = c2bFacts(c2b, now);
  if (await recordOnHolder(tx, ref, { ...facts, source: 'MPESA_C2B' })) return { outcome: 'duplicate', ref };
  const payment = await pq.insertPaymentOnce(tx, {
    ...facts,
    orderId: null,
    accountCustomerId: account.customerId,
    method: MPESA_REPORTED_METHOD,
    source: 'MPESA_C2B',
    reference: c2b.receipt,
    status: 'SUBMITTED',
    createdAt: now,
  });
  if (!payment) return { outcome: 'duplicate', ref };
  await settleAccountPayment(tx, account.customerId, payment, now);
  return { outcome: 'credited', ref };
}

async function applyC2b(tx: DbOrTx, c2b: C2bPayment, now: Date): Promise<Result> {
  const ref = c2b.receipt;
  const toAccount = await applyAccountC2b(tx, c2b, now);
  if (toAccount) return toAccount;
  const typedId = parseAccountRef(c2b.accountRef);
  // Taken before anything is read: a second delivery of this receipt waits here, then finds it recorded.
  const order = typedId ? await lockOrder(tx, typedId) : undefined;
  if (await pq.paymentByReceipt(tx, ref)) return { outcome: 'duplicate', ref };
  const facts = c2bFacts(c2b, now);
  // Ops confirmed this receipt by hand already (on this order or another): the money is accounted for.
  if (await recordOnHolder(tx, ref, { ...facts, source: 'MPESA_C2B' })) return { outcome: 'duplicate', ref };
  if (order) {
    // The same money already known from a status query (no receipt then): this names its receipt.
    const awaiting = await pq.awaitingOtherReport(tx, order.id, c2b.amountCents, { receipt: true });
    if (awaiting)
      return {
        outcome: await addReceipt(tx, awaiting, ref, { payerName: awaiting.payerName ?? c2b.payerName }, now),
        ref,
      };
    // The customer typed this receipt already: M-Pesa now vouches for it.
    const typed = await pq.paymentWithReference(tx, order.id, c2b.receipt);
    if (typed) {
      const updated = await pq.updatePayment(tx, typed.id, {
        ...facts,
        source: 'MPESA_C2B',
        reference: c2b.receipt,
      });
      await settlePayment(tx, order, updated, now);
      return { outcome: 'credited', ref };
    }
  }
  const payment = await pq.insertPaymentOnce(tx, {
    ...facts,
    orderId: order?.id ?? null,
    method: MPESA_REPORTED_METHOD,
    source: 'MPESA_C2B',
    reference: c2b.receipt,
    status: order ? 'SUBMITTED' : 'CONFIRMED',
    createdAt: now,
  });
  if (!payment) return { outcome: 'duplicate', ref };
  if (!order) {
    await raiseAlert(tx, { kind: 'payment.received', paymentId: payment.id });
    return { outcome: 'unmatched', ref };
  }
  await settlePayment(tx, order, payment, now);
  return { outcome: 'credited', ref };
}
