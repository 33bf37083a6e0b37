import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type DbOrTx, rows } from '../../drizzle/db';
import {
  alertDeliveries,
  articles,
  assignments,
  costs,
  dailySummaries,
  fuelAnomalies,
  fuelLogs,
  orders,
  payments,
  trucks,
  users,
  yardStock,
} from '../../drizzle/schema';
import { ALERT_RECIPIENT_ROLES } from '../../shared/roles';

/** What the fan-out and the routing panel know of a recipient. */
export const recipientColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  role: users.role,
  telegramChatId: users.telegramChatId,
};

/**
 * Every active alert recipient (ADMIN and OPS) with their Telegram chat, by role then name: the one
 * reading of who gets alerts, for the fan-out and the routing panel (core/notifications) alike.
 */
export function alertRecipients(db: DbOrTx) {
  return db
    .select(recipientColumns)
    .from(users)
    .where(and(inArray(users.role, [...ALERT_RECIPIENT_ROLES]), isNull(users.disabledAt)))
    .orderBy(asc(users.role), asc(users.name));
}

export async function orderForAlert(db: DbOrTx, orderId: number) {
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
    tracking_token: string;
  }>(
    db,
    sql`
    select o.id, o.name, o.phone, o.site, o.trucks, o.sand_type, o.total_cents::float8 as total_cents, p.reference, p.method, o.tracking_token
    from ${orders} o left join lateral (
      select reference, method from ${payments} where order_id = o.id order by created_at desc limit 1) p on true
    where o.id = ${orderId}`,
  );
  return o;
}

export async function duplicateForAlert(db: DbOrTx, entity: 'cost' | 'fuel', id: number) {
  const [d] =
    entity === 'fuel'
      ? await db
          .select({
            plate: sql<string>`coalesce(${trucks.plate}, ${fuelLogs.truckId})`,
            cents: fuelLogs.costCents,
          })
          .from(fuelLogs)
          .leftJoin(trucks, eq(trucks.id, fuelLogs.truckId))
          .where(eq(fuelLogs.id, id))
      : await db
          .select({
            plate: sql<string>`coalesce(${trucks.plate}, ${costs.truckId})`,
            cents: costs.amountCents,
          })
          .from(costs)
          .leftJoin(trucks, eq(trucks.id, costs.truckId))
          .where(eq(costs.id, id));
  return d;
}

export async function truckPlate(db: DbOrTx, truckId: string) {
  const [t] = await db.select({ plate: trucks.plate }).from(trucks).where(eq(trucks.id, truckId));
  return t?.plate;
}

export async function yardTonnes(db: DbOrTx) {
  const [s] = await db.select({ tonnes: yardStock.tonnes }).from(yardStock);
  return Number(s?.tonnes ?? 0);
}

export async function articleTitle(db: DbOrTx, articleId: number) {
  const [a] = await db.select({ title: articles.title }).from(articles).where(eq(articles.id, articleId));
  return a?.title;
}

export async function dailySummaryText(db: DbOrTx, day: string) {
  const [s] = await db
    .select({ text: dailySummaries.text })
    .from(dailySummaries)
    .where(eq(dailySummaries.forDate, day));
  return s?.text;
}

/** An M-Pesa payment with what its order (if any) totals and has been paid by confirmed payments. */
export async function paymentForAlert(db: DbOrTx, paymentId: number) {
  const [p] = await rows<{
    id: number;
    order_id: number | null;
    account_customer_id: number | null;
    unallocated_cents: number;
    reference: string;
    amount_cents: number | null;
    credit_cents: number;
    account_ref: string | null;
    payer_name: string | null;
    payer_phone: string | null;
    total_cents: number | null;
    payment_status: string | null;
    order_status: string | null;
    paid_cents: number;
  }>(
    db,
    sql`
    select p.id, p.order_id, p.account_customer_id, p.unallocated_cents::float8 as unallocated_cents, p.reference, p.amount_cents::float8 as amount_cents,
      p.credit_cents::float8 as credit_cents, p.account_ref, p.payer_name, p.payer_phone,
      o.total_cents::float8 as total_cents, o.payment_status, o.status as order_status,
      coalesce((select sum(x.amount_cents) from ${payments} x
        where x.order_id = p.order_id and x.status = 'CONFIRMED'), 0)::float8 as paid_cents
    from ${payments} p left join ${orders} o on o.id = p.order_id
    where p.id = ${paymentId}`,
  );
  return p;
}

/** One row per (event, recipient); the unique key makes a re-run add nothing. */
export function insertDeliveries(db: DbOrTx, values: (typeof alertDeliveries.$inferInsert)[]) {
  return db.insert(alertDeliveries).values(values).onConflictDoNothing();
}

export function deliveriesOf(db: DbOrTx, eventKey: string) {
  return db
    .select({
      id: alertDeliveries.id,
      status: alertDeliveries.status,
      recipientId: alertDeliveries.recipientId,
    })
    .from(alertDeliveries)
    .where(eq(alertDeliveries.eventKey, eventKey));
}

/** A fuel finding's truck plate and readable detail. */
export async function fuelAnomalyForAlert(db: DbOrTx, id: number) {
  const [a] = await db
    .select({ plate: trucks.plate, detail: fuelAnomalies.detail })
    .from(fuelAnomalies)
    .innerJoin(trucks, eq(trucks.id, fuelAnomalies.truckId))
    .where(eq(fuelAnomalies.id, id));
  return a;
}

/** A load flagged outside the transport window: plate, site, schedule and the order's overnight request. */
export async function loadForWindowAlert(db: DbOrTx, id: number) {
  const [l] = await db
    .select({
      id: assignments.id,
      plate: trucks.plate,
      site: orders.site,
      scheduledAt: assignments.scheduledAt,
      overnightPour: orders.overnightPour,
    })
    .from(assignments)
    .innerJoin(orders, eq(orders.id, assignments.orderId))
    .innerJoin(trucks, eq(trucks.id, assignments.truckId))
    .where(eq(assignments.id, id));
  return l;
}
