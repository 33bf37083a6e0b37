import { Telegram } from 'telegraf';
import { type JobContext, PermanentJobError } from '../context';
import * as q from './alert-telegram.queries';

function telegramError(err: unknown): { code: number | undefined; retryAfter: number | undefined } {
  const e = err as {
    code?: number;
    response?: { error_code?: number; parameters?: { retry_after?: number } };
  };
  return { code: e.response?.error_code ?? e.code, retryAfter: e.response?.parameters?.retry_after };
}

/**
 * Sends one delivery. Already sent: nothing to do (a re-run job sends nothing twice). Telegram's 429
 * re-queues the same delivery after `retry_after`; a permanent refusal (400 chat not found, 403 bot
 * blocked) marks it FAILED and is not retried; other errors fail the attempt so the runner retries it.
 */
export async function sendTelegramAlert(
  ctx: Pick<JobContext, 'db' | 'enqueue' | 'settings'>,
  deliveryId: number,
) {
  const delivery = await q.delivery(ctx.db, deliveryId);
  if (!delivery || delivery.status === 'SENT') return { sent: false };
  const { token, apiRoot } = ctx.settings.telegram;
  if (!token || !delivery.chatId) {
    await q.updateDelivery(ctx.db, deliveryId, { status: 'RECORDED' });
    return { sent: false };
  }
  const telegram = new Telegram(token, apiRoot ? { apiRoot } : {});
  try {
    await telegram.sendMessage(delivery.chatId, delivery.text);
  } catch (err) {
    const { code, retryAfter } = telegramError(err);
    const message = String((err as Error).message).slice(0, 300);
    if (code === 429) {
      const wait = Math.max(1, Number(retryAfter ?? 1));
      await ctx.enqueue(
        'alert.telegram',
        { deliveryId },
        { jobId: `alert.telegram:${deliveryId}:after-429-${Date.now()}`, delayMs: wait * 1000 },
      );
      return { sent: false, retryAfter: wait };
    }
    if (code === 400 || code === 401 || code === 403 || code === 404) {
      await q.updateDelivery(ctx.db, deliveryId, { status: 'FAILED', error: message });
      throw new PermanentJobError(`Telegram refused delivery ${deliveryId}: ${message}`, { cause: err });
    }
    await q.updateDelivery(ctx.db, deliveryId, { error: message });
    throw err;
  }
  await q.updateDelivery(ctx.db, deliveryId, { status: 'SENT', sentAt: new Date(), error: null });
  return { sent: true };
}
