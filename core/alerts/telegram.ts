import { Telegram } from 'telegraf';
import { type JobContext, PermanentJobError } from '../jobs/context';
import * as q from './telegram.queries';

function telegramError(err: unknown): { code: number | undefined; retryAfter: number | undefined } {
  const e = err as {
    code?: number;
    response?: { error_code?: number; parameters?: { retry_after?: number } };
  };
  return { code: e.response?.error_code ?? e.code, retryAfter: e.response?.parameters?.retry_after };
}

/**
 * A claim older than this is a runner that died mid-send (BullMQ hands a killed worker's job on after its
 * 30 s lock): the message may or may not have gone, and it is sent again. Longer than any send takes, so a
 * live runner's send is never doubled.
 */
export const SENDING_STALE_MS = 60_000;

/** Sent, but the SENT mark did not reach the database (it went away): the re-run here only marks it. */
const sentNotRecorded = new Set<number>();

/**
 * Sends one delivery, at most once as far as the record can tell. It is claimed (SENDING, in the database)
 * before the request and marked SENT after it, so a re-run job finds it sent and sends nothing. Only a
 * runner killed between Telegram taking the message and the SENT mark leaves it SENDING: after
 * SENDING_STALE_MS it is sent again — the one message in flight per killed worker may repeat (the
 * alert.telegram queue runs one job at a time per worker: shared/jobs.ts). Telegram's 429 re-queues it
 * after `retry_after`; a permanent refusal (400 chat not found, 403 bot blocked) marks it FAILED and is
 * not retried; other errors put it back to PENDING and fail the attempt so the runner retries it.
 */
export async function sendTelegramAlert(
  ctx: Pick<JobContext, 'db' | 'enqueue' | 'settings'>,
  deliveryId: number,
  options: { staleAfterMs?: number } = {},
) {
  const staleAfterMs = options.staleAfterMs ?? SENDING_STALE_MS;
  if (sentNotRecorded.has(deliveryId)) {
    await markSent(ctx, deliveryId);
    return { sent: false };
  }
  const delivery = await q.delivery(ctx.db, deliveryId);
  if (!delivery || delivery.status === 'SENT') return { sent: false };
  const { token, apiRoot } = ctx.settings.telegram;
  if (!token || !delivery.chatId) {
    await q.updateDelivery(ctx.db, deliveryId, { status: 'RECORDED' });
    return { sent: false };
  }
  const claimed = await q.claimForSending(ctx.db, deliveryId, staleAfterMs);
  if (!claimed) {
    // Sent meanwhile, or another runner is sending it (or died doing so): look again when its claim is stale.
    const age = await q.claimAgeMs(ctx.db, deliveryId);
    if (age === undefined) return { sent: false };
    const wait = Math.max(1_000, staleAfterMs - age + 500);
    await ctx.enqueue(
      'alert.telegram',
      { deliveryId },
      { jobId: `alert.telegram:${deliveryId}:claimed-${Date.now()}`, delayMs: wait },
    );
    return { sent: false, claimedElsewhere: true };
  }
  const telegram = new Telegram(token, apiRoot ? { apiRoot } : {});
  try {
    await telegram.sendMessage(claimed.chatId!, claimed.text);
  } catch (err) {
    const { code, retryAfter } = telegramError(err);
    const message = String((err as Error).message).slice(0, 300);
    if (code === 429) {
      const wait = Math.max(1, Number(retryAfter ?? 1));
      await q.updateDelivery(ctx.db, deliveryId, { status: 'PENDING', sendingAt: null, error: message });
      await ctx.enqueue(
        'alert.telegram',
        { deliveryId },
        { jobId: `alert.telegram:${deliveryId}:after-429-${Date.now()}`, delayMs: wait * 1000 },
      );
      return { sent: false, retryAfter: wait };
    }
    if (code === 400 || code === 401 || code === 403 || code === 404) {
      await q.updateDelivery(ctx.db, deliveryId, { status: 'FAILED', sendingAt: null, error: message });
      throw new PermanentJobError(`Telegram refused delivery ${deliveryId}: ${message}`, { cause: err });
    }
    await q.updateDelivery(ctx.db, deliveryId, { status: 'PENDING', sendingAt: null, error: message });
    throw err;
  }
  sentNotRecorded.add(deliveryId);
  await markSent(ctx, deliveryId);
  return { sent: true };
}

async function markSent(ctx: Pick<JobContext, 'db'>, deliveryId: number) {
  await q.updateDelivery(ctx.db, deliveryId, {
    status: 'SENT',
    sentAt: new Date(),
    sendingAt: null,
    error: null,
  });
  sentNotRecorded.delete(deliveryId);
}
