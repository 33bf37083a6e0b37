import type { DbOrTx } from '../../drizzle/db';
import { raiseAlert } from '../../drizzle/outbox';
import { fromCents } from '../../shared/domain/money';
import { accountRefOf } from '../../shared/domain/mpesa';
import { localDate } from '../../shared/domain/time';
import { DarajaError, darajaClient, darajaConfigOf } from '../../shared/mpesa/daraja';
import type { TUnmatchedPayment, TUnreconciled } from '../../shared/schemas/mpesa';
import type { JobContext } from '../jobs/context';
import * as pq from '../payments/payments.queries';
import { processCallback } from './callbacks';
import * as q from './mpesa.queries';

type Ctx = Pick<JobContext, 'db' | 'now' | 'settings'> &
  Partial<Pick<JobContext, 'log'>> & {
    fetch?: typeof fetch;
  };

// What "unreconciled" means, once: a payment whose account number was no order's, a prompt with no result
// PROMPT_QUIET_MS after it was sent, a callback not processed CALLBACK_STUCK_MS after it came (or one that
// could not be read). The ops view, the morning alert and its message count the same things.

/** A prompt with no callback this long after it was sent is asked about, and shows as open. */
export const PROMPT_QUIET_MS = 10 * 60_000;
/** A stored callback whose job has not finished this long after it came is stuck. */
export const CALLBACK_STUCK_MS = 2 * 60_000;
/** Asked at most this often about one prompt, this many times. */
const QUERY_EVERY_MS = 10 * 60_000;
const MAX_QUERIES = 6;

const quietSince = (now: Date) => new Date(now.getTime() - PROMPT_QUIET_MS);
const stuckSince = (now: Date) => new Date(now.getTime() - CALLBACK_STUCK_MS);

export function toUnmatched(p: pq.PaymentRow): TUnmatchedPayment {
  return {
    id: p.id,
    receipt: p.mpesaReceipt ?? p.reference,
    amount: fromCents(p.amountCents),
    paidAt: p.paidAt?.toISOString() ?? null,
    accountRef: p.accountRef,
    payerName: p.payerName,
    payerPhone: p.payerPhone,
    receivedAt: p.createdAt.toISOString(),
  };
}

/** Everything M-Pesa still open, for ops: nothing stays unreconciled without showing here. */
export async function unreconciled(db: DbOrTx, now: Date): Promise<TUnreconciled> {
  const [unmatched, prompts, callbacks, credits] = await Promise.all([
    pq.unmatchedPayments(db, { limit: 200 }),
    q.quietPrompts(db, quietSince(now)),
    q.openCallbacks(db, stuckSince(now)),
    pq.ordersWithCredit(db),
  ]);
  return {
    checkedAt: now.toISOString(),
    unmatched: unmatched.map(toUnmatched),
    prompts: prompts.map((p) => ({
      id: p.id,
      orderId: p.orderId,
      accountRef: accountRefOf(p.orderId),
      amount: fromCents(p.amountCents),
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
      credit: fromCents(c.creditCents),
    })),
  };
}

/** How much is unreconciled: unmatched payments, quiet prompts, open callbacks. */
export function unreconciledCounts(db: DbOrTx, now: Date) {
  return q.openCounts(db, quietSince(now), stuckSince(now));
}

/**
 * Nothing left hanging: stored callbacks whose job never finished are processed; prompts with no callback
 * after 10 minutes are asked about (M-Pesa Express query by CheckoutRequestID) and Daraja's answer is
 * stored as an STK_QUERY callback and processed like one. What stays open shows in the ops view.
 */
export async function reconcileMpesa(ctx: Ctx) {
  const now = ctx.now();
  let processed = 0;
  for (const { id } of await q.stuckCallbacks(ctx.db, stuckSince(now))) {
    try {
      await processCallback({ ...ctx, attempt: Number.POSITIVE_INFINITY }, id);
      processed += 1;
    } catch (err) {
      await q.recordCallbackError(ctx.db, id, err instanceof Error ? err.message.slice(0, 500) : String(err));
    }
  }

  const config = darajaConfigOf(ctx.settings);
  const due = await q.promptsToQuery(
    ctx.db,
    quietSince(now),
    new Date(now.getTime() - QUERY_EVERY_MS),
    MAX_QUERIES,
  );
  let asked = 0;
  let answered = 0;
  for (const prompt of due) {
    if (!config) {
      await q.recordQuery(ctx.db, prompt.id, now, 'M-Pesa prompts are not configured on this server');
      continue;
    }
    asked += 1;
    try {
      const answer = await darajaClient(config, ctx.fetch ? { fetch: ctx.fetch } : {}).stkQuery(
        prompt.checkoutRequestId,
      );
      if (answer.state === 'processing') {
        await q.recordQuery(ctx.db, prompt.id, now, answer.message || 'Still being processed');
        continue;
      }
      await q.recordQuery(ctx.db, prompt.id, now, null);
      const callbackId = await q.insertCallback(ctx.db, {
        kind: 'STK_QUERY',
        body: JSON.stringify(answer.body),
        receivedAt: now,
      });
      await processCallback({ ...ctx, attempt: Number.POSITIVE_INFINITY }, callbackId);
      answered += 1;
    } catch (err) {
      const message = err instanceof DarajaError ? err.message : 'The status query failed';
      ctx.log?.warn({ err, checkoutRequestId: prompt.checkoutRequestId }, 'M-Pesa status query failed');
      await q.recordQuery(ctx.db, prompt.id, now, message.slice(0, 500));
    }
  }
  return { processed, asked, answered };
}

/**
 * 07:00 Nairobi: if anything M-Pesa is still unreconciled, ops get an alert pointing at the view that lists
 * it (once per day).
 */
export async function morningMpesaCheck(ctx: Pick<JobContext, 'db' | 'now'>) {
  const now = ctx.now();
  const counts = await unreconciledCounts(ctx.db, now);
  const open = counts.unmatched + counts.prompts + counts.callbacks;
  if (open > 0)
    await ctx.db.transaction((tx) => raiseAlert(tx, { kind: 'mpesa.unreconciled', day: localDate(now) }));
  return { ...counts, alerted: open > 0 };
}
