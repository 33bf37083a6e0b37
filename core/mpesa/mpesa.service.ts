import { createHmac } from 'node:crypto';
import type { DbOrTx } from '../../drizzle/db';
import { parseCustomerAccountRef } from '../../shared/domain/accounts';
import { fromCents, toCents } from '../../shared/domain/money';
import {
  accountRefOf,
  C2B_ACCEPT,
  C2B_REFUSE_ACCOUNT,
  maskMsisdn,
  parseAccountRef,
  STK_RESULTS,
  splitAmount,
  stkAmountKes,
  stkResultMessage,
} from '../../shared/domain/mpesa';
import { balanceCents } from '../../shared/domain/payments';
import type { Logger } from '../../shared/logger';
import { parseC2b, parseJson, parseStkCallback } from '../../shared/mpesa/callbacks';
import { DarajaError, darajaClient, darajaConfigOf } from '../../shared/mpesa/daraja';
import {
  MPESA_MESSAGES,
  type TMatchedPayment,
  type TMatchPaymentInput,
  type TMpesaOptions,
  type TOrderMoney,
  type TStkPushAccepted,
  type TStkPushInput,
  type TStkStatus,
  type TStkStatusInput,
  type TUnmatchedPage,
  type TUnmatchedPageInput,
} from '../../shared/schemas/mpesa';
import type { Settings } from '../../shared/settings';
import type { CtxUser } from '../access/actor';
import { customerOwnsOrder } from '../access/rules';
import { findAccount } from '../accounts/accounts.queries';
import { nothingChanged, recordChange } from '../activity/activity';
import { consume, giveBack, type LimitCheck, type Limiters, RateLimitedError } from '../auth/rate-limit';
import { appError } from '../errors';
import { orderDocuments } from '../invoices/invoices.queries';
import { findOrder, lockOrder, type OrderRow } from '../orders/orders.queries';
import * as pq from '../payments/payments.queries';
import { settlePayment } from '../payments/settlement';
import { MPESA_CALLBACK_PATHS } from './mpesa.paths';
import * as q from './mpesa.queries';
import { paymentTokenAllows } from './payment-token';
import { toUnmatched } from './reconcile';

export interface MpesaDeps {
  settings: Settings;
  log: Logger;
  /** Prompts per phone number and per order (`stkPerPhone`, `stkPerOrder`). */
  limiters: Pick<Limiters, 'stkPerPhone' | 'stkPerOrder'>;
}

/** What the screens may offer: the paybill to quote the account number with, and the phone prompt. */
export function mpesaOptions(settings: Settings): TMpesaOptions {
  return { paybill: settings.mpesa.shortcode ?? null, stk: darajaConfigOf(settings) !== null };
}

/** A prompt still open on the phone this recently is answered again rather than sent twice. */
const PROMPT_OPEN_MS = 90_000;
/** Unmatched payments a page when the caller names no limit. */
const UNMATCHED_PAGE = 100;

/**
 * The order, if the caller may pay it: its signed-in customer, or whoever holds its payment token.
 * Anyone else is told it does not exist, exactly like an unknown id.
 */
async function payableOrder(
  db: DbOrTx,
  settings: Settings,
  who: CtxUser | null,
  orderId: number,
  token: string | undefined,
  now: Date,
): Promise<OrderRow> {
  const order = await findOrder(db, orderId);
  const own = order && who && customerOwnsOrder(who, order);
  if (order && (own || (await paymentTokenAllows(token, order.id, settings.jwtSecret, now)))) return order;
  throw appError('NOT_FOUND', MPESA_MESSAGES.orderNotFound);
}

async function moneyOf(db: DbOrTx, order: OrderRow): Promise<TOrderMoney & { balanceCents: number }> {
  const m = (await pq.paymentsOfOrders(db, [order.id])).get(order.id);
  const paidCents = m?.paidCents ?? 0;
  const owed = balanceCents({
    status: order.status,
    paymentStatus: order.paymentStatus,
    totalCents: order.totalCents,
    paidCents,
  });
  return {
    status: order.status,
    paymentStatus: order.paymentStatus,
    accountRef: accountRefOf(order.id),
    total: fromCents(order.totalCents),
    paid: fromCents(paidCents),
    balance: fromCents(owed),
    credit: fromCents(m?.creditCents),
    balanceCents: owed,
  };
}

function accepted(row: q.StkRequestRow): TStkPushAccepted {
  return {
    checkoutRequestId: row.checkoutRequestId,
    amount: fromCents(row.amountCents),
    part: row.part,
    parts: row.parts,
    message: MPESA_MESSAGES.checkYourPhone,
  };
}

/**
 * Sends the payment prompt for the outstanding balance (the first of several above KES 250,000) to the
 * customer's phone, with the order's account number, and records it. The callback settles it later.
 */
export async function pushStk(
  db: DbOrTx,
  deps: MpesaDeps,
  who: CtxUser | null,
  input: TStkPushInput,
  now: Date,
): Promise<TStkPushAccepted> {
  const config = darajaConfigOf(deps.settings);
  if (!config) throw appError('CONFLICT', MPESA_MESSAGES.notConfigured);
  const order = await payableOrder(db, deps.settings, who, input.id, input.paymentToken, now);
  const money = await moneyOf(db, order);
  if (money.balanceCents <= 0) throw appError('CONFLICT', MPESA_MESSAGES.nothingToPay);

  const phoneMasked = maskMsisdn(input.phone)!;
  const open = (await q.promptsSince(db, order.id, new Date(now.getTime() - PROMPT_OPEN_MS))).find(
    (r) => r.status === 'PENDING',
  );
  // A second tap on the same phone is the same prompt; another phone waits for the first to close.
  if (open && open.phoneMasked === phoneMasked) {
    nothingChanged();
    return accepted(open);
  }
  if (open) throw appError('CONFLICT', MPESA_MESSAGES.promptPending);
  // Counted before the prompt goes out (racing requests cannot slip past), given back if it does not.
  const spent = await spendPrompt(deps, input.phone, order.id);

  const prompts = splitAmount(stkAmountKes(money.balanceCents));
  const paidPrompts = await q.countPaidPrompts(db, order.id);
  const accountRef = accountRefOf(order.id);
  let sent: Awaited<ReturnType<ReturnType<typeof darajaClient>['stkPush']>>;
  try {
    sent = await darajaClient(config).stkPush({
      amountKes: prompts[0]!,
      msisdn: input.phone,
      accountRef,
      callbackUrl: `${deps.settings.publicUrl}${MPESA_CALLBACK_PATHS.stk}/${deps.settings.mpesa.callbackSecret}`,
      description: `Order ${order.id}`,
    });
  } catch (err) {
    await giveBack(spent);
    throw darajaRefusal(err, deps.log);
  }
  const row = await db.transaction(async (tx) => {
    const made = await q.insertStkRequest(tx, {
      orderId: order.id,
      checkoutRequestId: sent.checkoutRequestId,
      merchantRequestId: sent.merchantRequestId || null,
      amountCents: toCents(prompts[0]!),
      part: paidPrompts + 1,
      parts: paidPrompts + prompts.length,
      phoneMasked,
      requestedById: who?.id ?? null,
      createdAt: now,
      updatedAt: now,
    });
    await recordChange(tx, {
      entity: 'order',
      entityId: order.id,
      changes: {
        mpesaPrompt: {
          from: null,
          to: { amount: prompts[0]!, phone: phoneMasked, checkoutRequestId: made.checkoutRequestId },
        },
      },
    });
    return made;
  });
  return accepted(row);
}

/**
 * A prompt taken from the phone's allowance and the order's. The phone is counted under a keyed hash of its
 * number (no phone number is kept in the counters). Either spent: 429 with Retry-After, nothing taken.
 */
async function spendPrompt(deps: MpesaDeps, msisdn: string, orderId: number): Promise<LimitCheck[]> {
  const phoneKey = createHmac('sha256', deps.settings.jwtSecret).update(msisdn).digest('hex').slice(0, 32);
  const limits: Array<[LimitCheck, string]> = [
    [[deps.limiters.stkPerPhone, phoneKey], MPESA_MESSAGES.tooManyPhone],
    [[deps.limiters.stkPerOrder, String(orderId)], MPESA_MESSAGES.tooMany],
  ];
  const spent: LimitCheck[] = [];
  for (const [check, message] of limits) {
    try {
      await consume(...check);
      spent.push(check);
    } catch (err) {
      await giveBack(spent);
      if (!(err instanceof RateLimitedError)) throw err;
      throw appError('TOO_MANY_REQUESTS', message, undefined, {
        'retry-after': String(err.retryAfterSeconds),
      });
    }
  }
  return spent;
}

/** Daraja's refusal as the customer should read it; what they cannot fix is a 503 and a log line. */
function darajaRefusal(err: unknown, log: Logger) {
  if (err instanceof DarajaError) {
    if (err.kind === 'busy' && /lock subscriber/i.test(err.message))
      return appError('CONFLICT', STK_RESULTS['1001']!.message);
    if (err.kind === 'refused' && /phone|party ?a|msisdn/i.test(err.message))
      return appError('BAD_REQUEST', MPESA_MESSAGES.phoneRefused);
    log.error(
      { err: { message: err.message, kind: err.kind, status: err.status, code: err.code } },
      'STK push failed',
    );
  } else log.error({ err }, 'STK push failed');
  return appError('SERVICE_UNAVAILABLE', MPESA_MESSAGES.unreachable, undefined, { 'retry-after': '30' });
}

/**
 * The receipt that paid a prompt: its payment's, or (when its C2B confirmation came first and recorded the
 * money) the one its STK callback carried.
 */
async function receiptOfPrompt(db: DbOrTx, checkoutRequestId: string): Promise<string | null> {
  const payment = await pq.paymentByCheckout(db, checkoutRequestId);
  if (payment?.mpesaReceipt) return payment.mpesaReceipt;
  for (const body of await q.stkCallbackBodies(db, checkoutRequestId)) {
    const result = parseStkCallback(parseJson(body));
    if (result?.resultCode === '0' && result.receipt) return result.receipt;
  }
  return null;
}

/** Where a prompt stands (the screen polls it), with the order's money. */
export async function stkStatus(
  db: DbOrTx,
  deps: MpesaDeps,
  who: CtxUser | null,
  input: TStkStatusInput,
  now: Date,
): Promise<TStkStatus> {
  const order = await payableOrder(db, deps.settings, who, input.id, input.paymentToken, now);
  const prompt = await q.findPrompt(db, order.id, input.checkoutRequestId);
  if (!prompt) throw appError('NOT_FOUND', MPESA_MESSAGES.promptNotFound);
  const { balanceCents: _owed, ...money } = await moneyOf(db, order);
  const result =
    prompt.status === 'PENDING'
      ? { message: MPESA_MESSAGES.checkYourPhone, retry: false }
      : stkResultMessage(prompt.resultCode);
  return {
    checkoutRequestId: prompt.checkoutRequestId,
    status: prompt.status,
    resultCode: prompt.resultCode,
    message: result.message,
    retry: result.retry,
    amount: fromCents(prompt.amountCents),
    receipt: prompt.status === 'PAID' ? await receiptOfPrompt(db, prompt.checkoutRequestId) : null,
    order: money,
    // The receipt once the order is paid in full: linked from the payment's confirmation (issue 23).
    receiptUrl: (await orderDocuments(db, [order])).get(order.id)!.receiptUrl,
  };
}

/** A page of the unmatched payments, newest first; `nextCursor` continues after it (null: the last page). */
export async function unmatchedPayments(db: DbOrTx, input: TUnmatchedPageInput): Promise<TUnmatchedPage> {
  const limit = input?.limit ?? UNMATCHED_PAGE;
  const rows = await pq.unmatchedPayments(db, { limit: limit + 1, beforeId: input?.cursor });
  const page = rows.slice(0, limit);
  return {
    payments: page.map(toUnmatched),
    nextCursor: rows.length > limit ? String(page.at(-1)!.id) : null,
  };
}

/**
 * Ops match an M-Pesa payment whose account number was no order's: the payment joins the order with who
 * matched it and when, and settles it at once by the one rule (`settlePayment`, under the order's lock).
 */
export async function matchPayment(
  db: DbOrTx,
  who: CtxUser,
  input: TMatchPaymentInput,
  now: Date,
): Promise<TMatchedPayment> {
  return db.transaction(async (tx) => {
    const seen = await pq.findPayment(tx, input.id);
    if (!seen?.amountCents) throw appError('NOT_FOUND', MPESA_MESSAGES.paymentNotFound);
    if (seen.orderId !== null) throw appError('CONFLICT', MPESA_MESSAGES.alreadyMatched);
    const order = await lockOrder(tx, input.orderId);
    if (!order) throw appError('BAD_REQUEST', MPESA_MESSAGES.matchOrderNotFound);
    const payment = (await pq.lockPayment(tx, input.id))!;
    if (payment.orderId !== null) throw appError('CONFLICT', MPESA_MESSAGES.alreadyMatched);
    const matched = { orderId: order.id, matchedById: who.id, matchedAt: now, updatedAt: now };
    // The customer typed this receipt on the order already: that record takes M-Pesa's facts.
    const typed = await pq.paymentWithReference(tx, order.id, payment.reference);
    let settled: pq.PaymentRow;
    if (typed) {
      await pq.deletePayment(tx, payment.id);
      const { id: _id, orderId: _o, createdAt: _c, status: _s, ...facts } = payment;
      settled = await pq.updatePayment(tx, typed.id, { ...facts, ...matched });
    } else settled = await pq.updatePayment(tx, payment.id, { ...matched, status: 'SUBMITTED' });
    await settlePayment(tx, order, settled, now);
    await recordChange(tx, {
      entity: 'payment',
      entityId: settled.id,
      before: { orderId: null, reference: payment.reference, amount: fromCents(payment.amountCents) },
      after: { orderId: order.id, reference: payment.reference, amount: fromCents(payment.amountCents) },
    });
    return {
      id: settled.id,
      orderId: order.id,
      accountRef: accountRefOf(order.id),
      amount: fromCents(payment.amountCents),
      matchedBy: { id: who.id, name: await q.userName(tx, who.id) },
      matchedAt: now.toISOString(),
    };
  });
}

interface ReceivedCallback {
  kind: 'STK' | 'C2B_CONFIRMATION';
  body: string;
  sourceIp: string;
  receivedAt: Date;
}

/** At most this many callbacks go into one statement. */
const CALLBACKS_PER_WRITE = 100;

/**
 * Stores each callback as it came, with its processing job, atomically; each is answered once its row has
 * committed. Group commit: while one write is in flight, the callbacks that arrive meanwhile wait and go
 * together in the next statement, so a burst of 50 costs the database a few statements and commits rather
 * than 50 (on embedded PGlite, one backend serves them all in turn). A write that fails is retried one
 * callback at a time, so one bad row never refuses the others.
 */
export function callbackStore(db: DbOrTx) {
  type Waiting = { cb: ReceivedCallback; resolve: (id: number) => void; reject: (err: unknown) => void };
  const waiting: Waiting[] = [];
  let writing = false;

  async function write() {
    writing = true;
    try {
      while (waiting.length > 0) {
        const batch = waiting.splice(0, CALLBACKS_PER_WRITE);
        try {
          const ids = await q.insertCallbacksWithJobs(
            db,
            batch.map((w) => w.cb),
          );
          for (const [i, w] of batch.entries()) w.resolve(ids[i]!);
        } catch (err) {
          if (batch.length === 1) batch[0]!.reject(err);
          else
            await Promise.all(
              batch.map((w) =>
                q.insertCallbacksWithJobs(db, [w.cb]).then(([id]) => w.resolve(id!), w.reject),
              ),
            );
        }
      }
    } finally {
      writing = false;
    }
  }

  return {
    /** Resolves with the stored callback's id once it has committed. */
    accept(cb: ReceivedCallback): Promise<number> {
      return new Promise<number>((resolve, reject) => {
        waiting.push({ cb, resolve, reject });
        if (!writing) void write();
      });
    },
  };
}

/**
 * A C2B validation: stored, and answered at once. With `validateAccount` an account number that is no
 * order's (`MCH<id>`) nor a customer account's (`MCA<id>`) is refused (C2B00012: M-Pesa cancels the payment and tells the payer); otherwise every payment is
 * accepted and an unknown account waits in the unmatched list.
 */
export async function validateC2b(
  db: DbOrTx,
  validateAccount: boolean,
  cb: Omit<ReceivedCallback, 'kind'>,
): Promise<typeof C2B_ACCEPT | typeof C2B_REFUSE_ACCOUNT> {
  const c2b = parseC2b(parseJson(cb.body));
  const orderId = parseAccountRef(c2b?.accountRef);
  const accountId = parseCustomerAccountRef(c2b?.accountRef);
  const known =
    (orderId !== null && (await findOrder(db, orderId)) !== undefined) ||
    (accountId !== null && (await findAccount(db, accountId)) !== undefined);
  const refuse = validateAccount && !known;
  await q.insertCallback(db, {
    kind: 'C2B_VALIDATION',
    ...cb,
    processedAt: cb.receivedAt,
    ref: c2b?.receipt ?? null,
    outcome: refuse ? 'refused' : 'accepted',
  });
  return refuse ? C2B_REFUSE_ACCOUNT : C2B_ACCEPT;
}
