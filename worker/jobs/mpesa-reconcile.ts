import { raiseAlert } from '../../drizzle/outbox';
import { localDate } from '../../shared/domain/time';
import { DarajaError, darajaClient, darajaConfigOf } from '../../shared/mpesa/daraja';
import type { JobContext } from '../context';
import { processCallback } from './mpesa-process';
import { insertCallback } from './mpesa-process.queries';
import * as q from './mpesa-reconcile.queries';

type Ctx = Pick<JobContext, 'db' | 'now' | 'settings'> &
  Partial<Pick<JobContext, 'log'>> & {
    fetch?: typeof fetch;
  };

/** A prompt with no callback this long after it was sent is asked about. */
export const PROMPT_QUIET_MS = 10 * 60_000;
/** A stored callback whose job has not finished this long after it came is processed here. */
export const CALLBACK_STUCK_MS = 2 * 60_000;
/** Asked at most this often about one prompt, this many times. */
const QUERY_EVERY_MS = 10 * 60_000;
const MAX_QUERIES = 6;

/**
 * Nothing left hanging: stored callbacks whose job never finished are processed; prompts with no callback
 * after 10 minutes are asked about (M-Pesa Express query by CheckoutRequestID) and Daraja's answer is
 * stored as an STK_QUERY callback and processed like one. What stays open shows in the ops view.
 */
export async function reconcileMpesa(ctx: Ctx) {
  const now = ctx.now();
  let processed = 0;
  for (const { id } of await q.stuckCallbacks(ctx.db, new Date(now.getTime() - CALLBACK_STUCK_MS))) {
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
    new Date(now.getTime() - PROMPT_QUIET_MS),
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
      const callbackId = await insertCallback(ctx.db, {
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
  const counts = await q.unreconciledCounts(
    ctx.db,
    new Date(now.getTime() - PROMPT_QUIET_MS),
    new Date(now.getTime() - CALLBACK_STUCK_MS),
  );
  const open = counts.unmatched + counts.prompts + counts.callbacks;
  if (open > 0)
    await ctx.db.transaction((tx) => raiseAlert(tx, { kind: 'mpesa.unreconciled', day: localDate(now) }));
  return { ...counts, alerted: open > 0 };
}
