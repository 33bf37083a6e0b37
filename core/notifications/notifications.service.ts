import type { DbOrTx } from '../../drizzle/db';
import { users } from '../../drizzle/schema';
import { changesBetween } from '../../shared/domain/activity';
import {
  RECIPIENT_NOT_FOUND,
  type TNotificationRecipient,
  type TNotificationTargets,
  type TNotificationTargetUpdate,
} from '../../shared/schemas/notifications';
import type { Settings } from '../../shared/settings';
import { recordChange } from '../activity/activity';
import { lockedRow } from '../activity/activity.queries';
import { alertRecipients } from '../alerts/alerts.queries';
import { appError } from '../errors';
import * as q from './notifications.queries';

/**
 * Telegram alert routing: which ADMIN and OPS users get alerts, whether a bot can send them, and who is
 * failing — Telegram refused their latest alert in the chat they still have (a new chat id clears it).
 */
export async function notificationTargets(
  db: DbOrTx,
  settings: Pick<Settings, 'telegram'>,
): Promise<TNotificationTargets> {
  const recipients = await alertRecipients(db);
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
  return db.transaction(async (tx) => {
    const before = await lockedRow(tx, users, input.id);
    const row = await q.setChatId(tx, input.id, input.telegramChatId || null, now);
    if (!row || !before) throw appError('NOT_FOUND', RECIPIENT_NOT_FOUND);
    await recordChange(tx, {
      entity: 'user',
      entityId: input.id,
      changes: changesBetween(
        { telegramChatId: before.telegramChatId },
        { telegramChatId: input.telegramChatId || null },
      ),
    });
    return row;
  });
}
