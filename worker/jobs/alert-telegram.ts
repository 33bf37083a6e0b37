import { eq } from 'drizzle-orm';
import { Telegram } from 'telegraf';
import type { Database } from '../../drizzle/db';
import { alertDeliveries } from '../../drizzle/schema';
import type { EnqueueOptions, JobName, JobPayload } from '../../shared/jobs';

export type Enqueue = <N extends JobName>(
  name: N,
  payload: JobPayload<N>,
  options?: EnqueueOptions,
) => Promise<unknown>;

export interface TelegramConfig {
  token: string | undefined;
  /** Bot API root (tests point it at a local fake). */
  apiRoot?: string | undefined;
}

export function telegramConfig(env: NodeJS.ProcessEnv = process.env): TelegramConfig {
  return { token: env.TELEGRAM_BOT_TOKEN || undefined, apiRoot: env.TELEGRAM_API_ROOT || undefined };
}

function retryAfterSeconds(err: unknown): number | null {
  const e = err as {
    code?: number;
    response?: { error_code?: number; parameters?: { retry_after?: number } };
  };
  const code = e.response?.error_code ?? e.code;
  if (code !== 429) return null;
  return Math.max(1, Number(e.response?.parameters?.retry_after ?? 1));
}

/**
 * Sends one delivery. Already sent: nothing to do (a re-run job sends nothing twice). Telegram's 429
 * re-queues the same delivery after `retry_after`; other errors fail the attempt so BullMQ retries it.
 */
export async function sendTelegramAlert(
  database: Database,
  cfg: TelegramConfig,
  deliveryId: number,
  enqueue: Enqueue,
) {
  const [delivery] = await database.db
    .select()
    .from(alertDeliveries)
    .where(eq(alertDeliveries.id, deliveryId))
    .limit(1);
  if (!delivery || delivery.status === 'SENT') return { sent: false };
  if (!cfg.token || !delivery.chatId) {
    await database.db
      .update(alertDeliveries)
      .set({ status: 'RECORDED', updatedAt: new Date() })
      .where(eq(alertDeliveries.id, deliveryId));
    return { sent: false };
  }
  const telegram = new Telegram(cfg.token, cfg.apiRoot ? { apiRoot: cfg.apiRoot } : {});
  try {
    await telegram.sendMessage(delivery.chatId, delivery.text);
  } catch (err) {
    const wait = retryAfterSeconds(err);
    if (wait === null) {
      await database.db
        .update(alertDeliveries)
        .set({ error: String((err as Error).message).slice(0, 300), updatedAt: new Date() })
        .where(eq(alertDeliveries.id, deliveryId));
      throw err;
    }
    await enqueue(
      'alert.telegram',
      { deliveryId },
      { jobId: `alert.telegram:${deliveryId}:after-429-${Date.now()}`, delayMs: wait * 1000 },
    );
    return { sent: false, retryAfter: wait };
  }
  await database.db
    .update(alertDeliveries)
    .set({ status: 'SENT', sentAt: new Date(), error: null, updatedAt: new Date() })
    .where(eq(alertDeliveries.id, deliveryId));
  return { sent: true };
}
