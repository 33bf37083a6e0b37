import type { DbOrTx } from '../../../drizzle/db';
import {
  RECIPIENT_NOT_FOUND,
  type TNotificationRecipient,
  type TNotificationTargets,
  type TNotificationTargetUpdate,
} from '../../../shared/schemas/notifications';
import type { Settings } from '../../../shared/settings';
import { appError } from '../../errors';
import * as q from './notifications.queries';

/**
 * Telegram alert routing: which ADMIN and OPS users get alerts, whether a bot can send them, and who is
 * failing — Telegram refused their latest alert in the chat they still have (a new chat id clears it).
 */
export async function notificationTargets(
  db: DbOrTx,
  settings: Pick<Settings, 'telegram'>,
): Promise<TNotificationTargets> {
  const recipients = await q.recipients(db);
  const latest = new Map(
    (
      await q.latestDeliveries(
        db,
        recipients.map((r) => r.id),
      )
    ).map((d) => [d.recipientId, d]),
  );
  return {
    recipients: recipients.map((r) => {
      const last = latest.get(r.id);
      const failing =
        last?.status === 'FAILED' && last.chatId === r.telegramChatId
          ? { error: last.error ?? 'Telegram refused the alert.', at: last.at.toISOString() }
          : null;
      return { ...r, failing };
    }),
    botConfigured: Boolean(settings.telegram.token),
  };
}

/** Sets or (blank) clears a recipient's Telegram chat id; anyone but ADMIN and OPS is not found. */
export async function setTelegramChat(
  db: DbOrTx,
  input: TNotificationTargetUpdate,
  now: Date,
): Promise<TNotificationRecipient> {
  const row = await q.setChatId(db, input.id, input.telegramChatId || null, now);
  if (!row) throw appError('NOT_FOUND', RECIPIENT_NOT_FOUND);
  return row;
}
