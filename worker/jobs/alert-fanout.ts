import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
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

export function alertText(kind: AlertKind, refId: string, detail?: string | null): string {
  return detail ? `${TITLES[kind]}: ${detail}` : `${TITLES[kind]} (${refId})`;
}

const kes = (cents: unknown) => `KES ${Math.round(Number(cents) / 100).toLocaleString('en-KE')}`;

/** The line a dispatcher reads on the phone, from the row the event is about. */
async function describeEvent(database: Database, kind: AlertKind, refId: string): Promise<string | null> {
  const rows = database.rows.bind(database);
  switch (kind) {
    case 'order.created':
    case 'payment.submitted': {
      const [o] = await rows<{
        id: number;
        name: string;
        phone: string;
        site: string;
        trucks: number;
        sand_type: string;
        total_cents: number;
        reference: string | null;
        method: string | null;
      }>(sql`
        select o.id, o.name, o.phone, o.site, o.trucks, o.sand_type, o.total_cents::float8 as total_cents, p.reference, p.method
        from orders o left join lateral (select reference, method from payments where order_id = o.id order by created_at desc limit 1) p on true
        where o.id = ${Number(refId) || 0}`);
      if (!o) return null;
      const base = `order #${o.id}, ${o.trucks} × ${o.sand_type} to ${o.site}, ${kes(o.total_cents)} (${o.name}${o.phone ? `, ${o.phone}` : ''})`;
      return kind === 'payment.submitted' && o.reference
        ? `${base}; ${o.method} reference ${o.reference}`
        : base;
    }
    case 'duplicate.flagged': {
      const [entity, id] = refId.split(':');
      const [d] =
        entity === 'fuel'
          ? await rows<{ plate: string; amount: number }>(
              sql`select coalesce(t.plate, f.truck_id) as plate, f.cost_cents::float8 as amount from fuel_logs f left join trucks t on t.id = f.truck_id where f.id = ${Number(id) || 0}`,
            )
          : await rows<{ plate: string; amount: number }>(
              sql`select coalesce(t.plate, c.truck_id) as plate, c.amount_cents::float8 as amount from costs c left join trucks t on t.id = c.truck_id where c.id = ${Number(id) || 0}`,
            );
      return d
        ? `${entity === 'fuel' ? 'fuel log' : 'cost'} of ${kes(d.amount)} for ${d.plate}; review it in the audit console`
        : null;
    }
    case 'truck.idle': {
      const [truckId, since] = refId.split('@');
      const [t] = await rows<{ plate: string }>(sql`select plate from trucks where id = ${truckId ?? ''}`);
      return t
        ? `${t.plate} has a load and has not moved since ${since ? new Date(since).toLocaleTimeString('en-KE', { timeZone: 'Africa/Nairobi', hour: '2-digit', minute: '2-digit' }) : 'a while'}`
        : null;
    }
    case 'stock.low': {
      const [st] = await rows<{ tonnes: number }>(
        sql`select coalesce(sum(tonnes), 0)::float8 as tonnes from stock_transactions`,
      );
      return `the yard holds ${Math.round(st?.tonnes ?? 0)} t; time to restock`;
    }
    case 'article.published': {
      const [a] = await rows<{ title: string }>(
        sql`select title from articles where id = ${Number(refId) || 0}`,
      );
      return a?.title ?? null;
    }
  }
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
  const text = alertText(
    payload.kind,
    payload.refId,
    await describeEvent(database, payload.kind, payload.refId),
  );
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
