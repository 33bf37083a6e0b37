import { and, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../../drizzle/db';
import { alertDeliveries, users } from '../../drizzle/schema';
import type { AlertKind, JobPayload } from '../../shared/jobs';

const TITLES: Record<AlertKind, string> = {
  'order.created': 'New order',
  'payment.submitted': 'Payment confirmation submitted',
  'duplicate.flagged': 'Duplicate entry flagged',
  'truck.idle': 'Truck idle with a load',
  'stock.low': 'Yard stock low',
  'article.published': 'Morning briefing published',
};

export function alertText(kind: AlertKind, refId: string): string {
  return `${TITLES[kind]} (${refId})`;
}

/**
 * One delivery row per (event, recipient) for every active ADMIN and OPS user. The unique key makes a
 * re-run job add nothing twice. Rows start RECORDED: sending them is the Telegram job's work when a bot
 * is configured.
 */
export async function fanOutAlert(database: Database, payload: JobPayload<'alert.fanout'>) {
  const eventKey = `${payload.kind}:${payload.refId}`;
  const recipients = await database.db
    .select({ id: users.id, chatId: users.telegramChatId })
    .from(users)
    .where(and(inArray(users.role, ['ADMIN', 'OPS']), isNull(users.disabledAt)));
  if (recipients.length === 0) return { recipients: 0 };
  const text = alertText(payload.kind, payload.refId);
  await database.db
    .insert(alertDeliveries)
    .values(
      recipients.map((r) => ({
        eventKey,
        recipientId: r.id,
        chatId: r.chatId,
        text,
        status: 'RECORDED' as const,
      })),
    )
    .onConflictDoNothing();
  return { recipients: recipients.length };
}
