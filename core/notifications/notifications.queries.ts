import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { alertDeliveries, users } from '../../drizzle/schema';
import { ALERT_RECIPIENT_ROLES } from '../../shared/roles';
import { recipientColumns } from '../alerts/alerts.queries';

/** Sets a recipient's chat; undefined when the user is no alert recipient. */
export async function setChatId(db: DbOrTx, userId: number, telegramChatId: string | null, now: Date) {
  const [row] = await db
    .update(users)
    .set({ telegramChatId, updatedAt: now })
    .where(and(eq(users.id, userId), inArray(users.role, [...ALERT_RECIPIENT_ROLES])))
    .returning(recipientColumns);
  return row;
}

/** Each recipient's latest delivery that reached Telegram (sent, or refused for good), newest first by id. */
export function latestDeliveries(db: DbOrTx, recipientIds: number[]) {
  if (recipientIds.length === 0) return Promise.resolve([]);
  return db
    .selectDistinctOn([alertDeliveries.recipientId], {
      recipientId: alertDeliveries.recipientId,
      status: alertDeliveries.status,
      chatId: alertDeliveries.chatId,
      error: alertDeliveries.error,
      at: alertDeliveries.updatedAt,
    })
    .from(alertDeliveries)
    .where(
      and(
        inArray(alertDeliveries.recipientId, recipientIds),
        inArray(alertDeliveries.status, ['SENT', 'FAILED']),
        isNotNull(alertDeliveries.chatId),
      ),
    )
    .orderBy(alertDeliveries.recipientId, desc(alertDeliveries.id));
}
