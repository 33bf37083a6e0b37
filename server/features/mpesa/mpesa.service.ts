import type { DbOrTx } from '../../../drizzle/db';
import { writeOutbox } from '../../../drizzle/outbox';
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
} from '../../../shared/domain/mpesa';
import { balanceCents } from '../../../shared/domain/payments';
import type { Logger } from '../../../shared/logger';
import { parseC2b, parseJson } from '../../../shared/mpesa/callbacks';
import { DarajaError, darajaClient, darajaConfigOf } from '../../../shared/mpesa/daraja';
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
  type TUnmatchedPayment,
  type TUnreconciled,
} from '../../../shared/schemas/mpesa';
import type { Settings } from '../../../shared/settings';
import type { CtxUser } from '../../context';
import { appError } from '../../errors';
import { paymentsOfOrders } from '../payments/payments.queries';
import { MPESA_CALLBACK_PATHS } from './mpesa.paths';
import * as q from './mpesa.queries';
import { paymentTokenAllows } from './payment-token';

export interface MpesaDeps {
  settings: Settings;
  log: Logger;
}

/** What the screens may offer: the paybill to quote the account number with, and the phone prompt. */
export function mpesaOptions(settings: Settings): TMpesaOptions {
  return { paybill: settings.mpesa.shortcode ?? null, stk: darajaConfigOf(settings) !== null };
}

/** A prompt still open on the phone this recently is answered again rather than sent twice. */
const PROMPT_OPEN_MS = 90_000;
/** At most this many prompts per order in this window: a payment token cannot be used to pester a phone. */
const PROMPT_WINDOW_MS = 15 * 60_000;
const PROMPTS_PER_WINDOW = 5;

type OrderRow = NonNullable<Awaited<ReturnType<typeof q.findOrder>>>;

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
  const order = await q.findOrder(db, orderId);
  const own = order && who?.role === 'CUSTOMER' && order.customerId === who.id;
  if (order && (own || (await paymentTokenAllows(token, order.id, settings.jwtSecret, now)))) return order;
  throw appError('NOT_FOUND', MPESA_MESSAGES.orderNotFound);
}

async function moneyOf(db: DbOrTx, order: OrderRow): Promise<TOrderMoney & { balanceCents: number }> {
  const m = (await paymentsOfOrders(db, [order.id])).get(order.id);
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
    total: order.totalCents / 100,
    paid: paidCents / 100,
    balance: owed / 100,
    credit: (m?.creditCents ?? 0) / 100,
    balanceCents: owed,
  };
}

function accepted(row: q.StkRequestRow): TStkPushAccepted {
  return {
    checkoutRequestId: row.checkoutRequestId,
    amount: row.amountCents / 100,
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
  const recent = await q.promptsSince(db, order.id, new Date(now.getTime() - PROMPT_WINDOW_MS));
  const open = recent.find(
    (r) => r.status === 'PENDING' && now.getTime() - r.createdAt.getTime() < PROMPT_OPEN_MS,
  );
  // A second tap on the same phone is the same prompt; another phone waits for the first to close.
  if (open && open.phoneMasked === phoneMasked) return accepted(open);
  if (open) throw appError('CONFLICT', MPESA_MESSAGES.promptPending);
  if (recent.length >= PROMPTS_PER_WINDOW) {
    const oldest = recent[recent.length - 1]!.createdAt.getTime();
    const wait = Math.max(1, Math.ceil((oldest + PROMPT_WINDOW_MS - now.getTime()) / 1000));
    throw appError(
      'TOO_MANY_REQUESTS',
      'Too many payment prompts for this order. Wait a few minutes, or pay with the paybill and the account number shown.',
      undefined,
      { 'retry-after': String(wait) },
    );
  }

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
    throw darajaRefusal(err, deps.log);
  }
  const row = await q.insertStkRequest(db, {
    orderId: order.id,
    checkoutRequestId: sent.checkoutRequestId,
    merchantRequestId: sent.merchantRequestId || null,
    amountCents: prompts[0]! * 100,
    part: paidPrompts + 1,
    parts: paidPrompts + prompts.length,
    phoneMasked,
    requestedById: who?.id ?? null,
    createdAt: now,
    updatedAt: now,
  });
  return accepted(row);
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
    amount: prompt.amountCents / 100,
    receipt: prompt.status === 'PAID' ? await q.receiptOfPrompt(db, prompt.checkoutRequestId) : null,
    order: money,
  };
}

function toUnmatched(p: Awaited<ReturnType<typeof q.unmatchedPayments>>[number]): TUnmatchedPayment {
  return {
    id: p.id,
    receipt: p.mpesaReceipt ?? p.reference,
    amount: (p.amountCents ?? 0) / 100,
    paidAt: p.paidAt?.toISOString() ?? null,
    accountRef: p.accountRef,
    payerName: p.payerName,
    payerPhone: p.payerPhone,
    receivedAt: p.createdAt.toISOString(),
  };
}

export async function unmatchedPayments(db: DbOrTx): Promise<TUnmatchedPayment[]> {
  return (await q.unmatchedPayments(db)).map(toUnmatched);
}

/**
 * Ops match an M-Pesa payment whose account number was no order's: the payment joins the order with who
 * matched it and when, and settles it by the same rule as a callback (`mpesa.settle`, same transaction).
 */
export async function matchPayment(
  db: DbOrTx,
  who: CtxUser,
  input: TMatchPaymentInput,
  now: Date,
): Promise<TMatchedPayment> {
  return db.transaction(async (tx) => {
    const payment = await q.lockPayment(tx, input.id);
    if (!payment?.amountCents) throw appError('NOT_FOUND', MPESA_MESSAGES.paymentNotFound);
    if (payment.orderId !== null) throw appError('CONFLICT', MPESA_MESSAGES.alreadyMatched);
    if (!(await q.orderExists(tx, input.orderId)))
      throw appError('BAD_REQUEST', MPESA_MESSAGES.matchOrderNotFound);
    const matched = {
      orderId: input.orderId,
      status: 'SUBMITTED' as const,
      matchedById: who.id,
      matchedAt: now,
    };
    // The customer typed this receipt on the order already: that record takes M-Pesa's facts.
    const typed = await q.sameReference(tx, input.orderId, payment.reference);
    let settledId = payment.id;
    if (typed) {
      await q.deletePayment(tx, payment.id);
      const { id: _id, orderId: _o, createdAt: _c, ...facts } = payment;
      await q.updatePayment(tx, typed.id, {
        ...facts,
        ...matched,
        status: typed.status === 'CONFIRMED' ? 'CONFIRMED' : 'SUBMITTED',
        message: typed.message,
        submittedById: typed.submittedById,
        updatedAt: now,
      });
      settledId = typed.id;
    } else await q.updatePayment(tx, payment.id, { ...matched, updatedAt: now });
    await writeOutbox(tx, 'mpesa.settle', { paymentId: settledId, matchedAt: now.toISOString() });
    return {
      id: settledId,
      orderId: input.orderId,
      accountRef: accountRefOf(input.orderId),
      amount: payment.amountCents / 100,
      matchedBy: { id: who.id, name: await q.userName(tx, who.id) },
      matchedAt: now.toISOString(),
    };
  });
}

/** Prompts quiet this long are the reconciliation job's; callbacks unprocessed this long are stuck. */
const PROMPT_QUIET_MS = 10 * 60_000;
const CALLBACK_STUCK_MS = 2 * 60_000;

/** Everything M-Pesa still open: nothing stays unreconciled without showing here. */
export async function unreconciled(db: DbOrTx, now: Date): Promise<TUnreconciled> {
  const [unmatched, prompts, callbacks, credits] = await Promise.all([
    q.unmatchedPayments(db),
    q.quietPrompts(db, new Date(now.getTime() - PROMPT_QUIET_MS)),
    q.openCallbacks(db, new Date(now.getTime() - CALLBACK_STUCK_MS)),
    q.ordersWithCredit(db),
  ]);
  return {
    checkedAt: now.toISOString(),
    unmatched: unmatched.map(toUnmatched),
    prompts: prompts.map((p) => ({
      id: p.id,
      orderId: p.orderId,
      accountRef: accountRefOf(p.orderId),
      amount: p.amountCents / 100,
      phone: p.phoneMasked,
      sentAt: p.createdAt.toISOString(),
      queriedAt: p.queriedAt?.toISOString() ?? null,
      queryCount: p.queryCount,
      lastAnswer: p.queryError,
    })),
    callbacks: callbacks.map((c) => ({
      id: c.id,
      kind: c.kind,
      receivedAt: c.receivedAt.toISOString(),
      error: c.error,
    })),
    credits: credits.map((c) => ({
      orderId: c.orderId,
      accountRef: accountRefOf(c.orderId),
      name: c.name,
      credit: Number(c.creditCents) / 100,
    })),
  };
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
 * order's is refused (C2B00012: M-Pesa cancels the payment and tells the payer); otherwise every payment is
 * accepted and an unknown account waits in the unmatched list.
 */
export async function validateC2b(
  db: DbOrTx,
  validateAccount: boolean,
  cb: Omit<ReceivedCallback, 'kind'>,
): Promise<typeof C2B_ACCEPT | typeof C2B_REFUSE_ACCOUNT> {
  const c2b = parseC2b(parseJson(cb.body));
  const orderId = parseAccountRef(c2b?.accountRef);
  const known = orderId !== null && (await q.orderExists(db, orderId));
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
