import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../../drizzle/db';
import { alertDeliveries, users } from '../../drizzle/schema';
import type { AlertKind, JobPayload } from '../../shared/jobs';
import type { Enqueue } from './alert-telegram';

/** How a job raises a business alert (queued as alert.fanout, or fanned out at once). */
export type EmitAlert = (kind: AlertKind, refId: string) => Promise<unknown>;

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
 * re-run job add nothing twice. Without a bot (or a chat id) rows are RECORDED; otherwise PENDING until
 * their alert.telegram job sends them.
 */
export async function fanOutAlert(
  database: Database,
  payload: JobPayload<'alert.fanout'>,
  send?: { enqueue: Enqueue; botConfigured: boolean },
) {
  const eventKey = `${payload.kind}:${payload.refId}`;
  const recipients = await database.db
    .select({ id: users.id, chatId: users.telegramChatId })
    .from(users)
    .where(and(inArray(users.role, ['ADMIN', 'OPS']), isNull(users.disabledAt)));
  if (recipients.length === 0) return { recipients: 0 };
  const text = alertText(payload.kind, payload.refId);
  const withChat = send?.botConfigured
    ? new Set(recipients.filter((r) => r.chatId).map((r) => r.id))
    : new Set<number>();
  await database.db
    .insert(alertDeliveries)
    .values(
      recipients.map((r) => ({
        eventKey,
        recipientId: r.id,
        chatId: r.chatId,
        text,
        status: withChat.has(r.id) ? ('PENDING' as const) : ('RECORDED' as const),
      })),
    )
    .onConflictDoNothing();
  // One job per (event, recipient), the delivery id its job id: a re-run enqueues nothing new.
  if (send && withChat.size > 0) {
    const rows = await database.db
      .select({
        id: alertDeliveries.id,
        status: alertDeliveries.status,
        recipientId: alertDeliveries.recipientId,
      })
      .from(alertDeliveries)
      .where(eq(alertDeliveries.eventKey, eventKey));
    for (const row of rows) {
      if (row.status === 'PENDING' && withChat.has(row.recipientId))
        await send.enqueue('alert.telegram', { deliveryId: row.id });
    }
  }
  return { recipients: recipients.length };
}
