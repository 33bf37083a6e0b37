import { and, asc, desc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../../drizzle/db';
import { alertDeliveries, users } from '../../../drizzle/schema';
import { ALERT_RECIPIENT_ROLES } from '../../../shared/schemas/notifications';

const recipientColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  role: users.role,
  telegramChatId: users.telegramChatId,
};

/** Active alert recipients, by role then name. */
export function recipients(db: DbOrTx) {
  return db
    .select(recipientColumns)
    .from(users)
    .where(and(inArray(users.role, [...ALERT_RECIPIENT_ROLES]), isNull(users.disabledAt)))
    .orderBy(asc(users.role), asc(users.name));
}

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
