import { and, asc, desc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import {
  assignments,
  conversations,
  deliveryProofs,
  drivers,
  inboundCallbacks,
  messages,
  orders,
  trucks,
  users,
} from '../../drizzle/schema';
import type { InboundSource, MessageStatus } from '../../shared/enums';

// Every SQL statement on the customer rails: stored callbacks, conversations and their messages.

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

export async function insertInbound(
  db: DbOrTx,
  values: { source: InboundSource; body: string; sourceIp: string; receivedAt: Date },
): Promise<number> {
  const [row] = await db.insert(inboundCallbacks).values(values).returning({ id: inboundCallbacks.id });
  return row!.id;
}

/** The stored callback, locked until the transaction ends (a re-run job waits, then sees it processed). */
export async function lockInbound(db: DbOrTx, id: number) {
  const [row] = await db
    .select()
    .from(inboundCallbacks)
    .where(eq(inboundCallbacks.id, id))
    .for('update')
    .limit(1);
  return row;
}

export function markInbound(db: DbOrTx, id: number, at: Date, error: string | null = null) {
  return db.update(inboundCallbacks).set({ processedAt: at, error }).where(eq(inboundCallbacks.id, id));
}

/** The conversation of a phone (2547…), made on first contact; locked until the transaction ends. */
export async function conversationFor(
  db: DbOrTx,
  phone: string,
  values: Partial<typeof conversations.$inferInsert> = {},
): Promise<ConversationRow> {
  await db
    .insert(conversations)
    .values({ phone, ...values })
    .onConflictDoNothing({ target: conversations.phone });
  const [row] = await db.select().from(conversations).where(eq(conversations.phone, phone)).for('update');
  return row!;
}

export async function findConversation(db: DbOrTx, id: number) {
  const [row] = await db.select().from(conversations).where(eq(conversations.id, id)).limit(1);
  return row;
}

export async function conversationByPhone(db: DbOrTx, phone: string) {
  const [row] = await db.select().from(conversations).where(eq(conversations.phone, phone)).limit(1);
  return row;
}

export async function updateConversation(
  db: DbOrTx,
  id: number,
  set: Partial<typeof conversations.$inferInsert>,
): Promise<ConversationRow> {
  const [row] = await db
    .update(conversations)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(conversations.id, id))
    .returning();
  return row!;
}

/** Records an inbound message once: undefined when its id was recorded before (a replay). */
export async function insertInboundMessage(db: DbOrTx, values: typeof messages.$inferInsert) {
  const [row] = await db
    .insert(messages)
    .values(values)
    .onConflictDoNothing({ target: [messages.channel, messages.providerId] })
    .returning();
  return row;
}

/** Writes an outgoing message; undefined when its event key was written before (the news told once). */
export async function insertOutgoing(db: DbOrTx, values: typeof messages.$inferInsert) {
  const [row] = await db.insert(messages).values(values).onConflictDoNothing().returning();
  return row;
}

export async function findMessage(db: DbOrTx, id: number) {
  const [row] = await db.select().from(messages).where(eq(messages.id, id)).limit(1);
  return row;
}

export async function messageByProviderId(db: DbOrTx, channel: 'WHATSAPP' | 'SMS', providerId: string) {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.channel, channel), eq(messages.providerId, providerId)))
    .for('update')
    .limit(1);
  return row;
}

export async function updateMessage(db: DbOrTx, id: number, set: Partial<typeof messages.$inferInsert>) {
  const [row] = await db
    .update(messages)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(messages.id, id))
    .returning();
  return row!;
}

/**
 * Claims a message for sending (SENDING, by the database's clock) unless it was sent or refused, or another
 * runner claimed it less than `staleAfterMs` ago. Undefined when not claimed.
 */
export async function claimMessage(db: DbOrTx, id: number, staleAfterMs: number) {
  const [row] = await db
    .update(messages)
    .set({ status: 'SENDING', sendingAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(messages.id, id),
        or(
          eq(messages.status, 'PENDING'),
          and(
            eq(messages.status, 'SENDING'),
            sql`${messages.sendingAt} < now() - make_interval(secs => ${staleAfterMs / 1000})`,
          ),
        ),
      ),
    )
    .returning();
  return row;
}

/** Whether WhatsApp told us lately that this conversation's number cannot get WhatsApp messages. */
export async function lastWhatsappFailure(db: DbOrTx, conversationId: number) {
  const [row] = await db
    .select({ errorCode: messages.errorCode, at: messages.updatedAt })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        eq(messages.channel, 'WHATSAPP'),
        eq(messages.direction, 'OUT'),
        inArray(messages.status, ['SENT', 'DELIVERED', 'READ', 'FAILED'] satisfies MessageStatus[]),
      ),
    )
    .orderBy(desc(messages.id))
    .limit(1);
  return row;
}

/** A conversation's messages, oldest first (the last `limit`). */
export async function conversationMessages(db: DbOrTx, conversationId: number, limit = 200) {
  const rows = await db
    .select({
      id: messages.id,
      direction: messages.direction,
      channel: messages.channel,
      text: messages.text,
      template: messages.template,
      status: messages.status,
      errorCode: messages.errorCode,
      error: messages.error,
      byUserName: users.name,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .leftJoin(users, eq(users.id, messages.byUserId))
    .where(eq(messages.conversationId, conversationId))
    .orderBy(desc(messages.id))
    .limit(limit);
  return rows.reverse();
}

/** The conversations an order's messages went through, latest first. */
export async function conversationsOfOrder(db: DbOrTx, orderId: number) {
  return db
    .select()
    .from(conversations)
    .where(
      or(
        eq(conversations.orderId, orderId),
        inArray(
          conversations.id,
          db
            .selectDistinct({ id: messages.conversationId })
            .from(messages)
            .where(eq(messages.orderId, orderId)),
        ),
      ),
    )
    .orderBy(desc(conversations.updatedAt));
}

/** The order and what its news is made of. */
export async function orderForNews(db: DbOrTx, orderId: number) {
  const [row] = await db
    .select({
      order: orders,
      customerLanguage: users.language,
      customerPhone: users.phone,
    })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.customerId))
    .where(eq(orders.id, orderId))
    .limit(1);
  return row;
}

/** A load with its truck's plate and driver's name, and its place among the order's loads. */
export async function loadForNews(db: DbOrTx, loadId: number) {
  const [row] = await db
    .select({
      id: assignments.id,
      orderId: assignments.orderId,
      status: assignments.status,
      plate: trucks.plate,
      driverName: drivers.name,
    })
    .from(assignments)
    .innerJoin(trucks, eq(trucks.id, assignments.truckId))
    .leftJoin(drivers, eq(drivers.id, assignments.driverId))
    .where(eq(assignments.id, loadId))
    .limit(1);
  if (!row) return undefined;
  const siblings = await db
    .select({ id: assignments.id })
    .from(assignments)
    .where(and(eq(assignments.orderId, row.orderId), ne(assignments.status, 'CANCELLED')))
    .orderBy(asc(assignments.id));
  return { ...row, loadNo: siblings.findIndex((s) => s.id === row.id) + 1, loads: siblings.length };
}

/**
 * A phone column read as its national number's last nine digits, however it was typed (0712 345 678,
 * +254712345678): how an order or an account is found for a WhatsApp number. Not indexed: it runs on a
 * conversation's first message only (the conversation keeps the order and the account after).
 */
const nationalOf = (column: typeof orders.phone | typeof users.phone) =>
  sql`right(regexp_replace(${column}, '[^0-9]', '', 'g'), 9)`;

/** The latest order placed with this number (2547…). */
export async function latestOrderOfPhone(db: DbOrTx, msisdn: string) {
  const [row] = await db
    .select()
    .from(orders)
    .where(sql`${nationalOf(orders.phone)} = ${msisdn.slice(-9)}`)
    .orderBy(desc(orders.id))
    .limit(1);
  return row;
}

/** The CUSTOMER account with this number (2547…), if one has it. */
export async function customerByPhone(db: DbOrTx, msisdn: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(
      and(
        sql`${nationalOf(users.phone)} = ${msisdn.slice(-9)}`,
        eq(users.role, 'CUSTOMER'),
        isNull(users.disabledAt),
      ),
    )
    .orderBy(asc(users.id))
    .limit(1);
  return row;
}

/** An order's loads with their trucks' plates, in order (for "where is my sand?"). */
export function loadsOfOrder(db: DbOrTx, orderId: number) {
  return db
    .select({ plate: trucks.plate, status: assignments.status })
    .from(assignments)
    .innerJoin(trucks, eq(trucks.id, assignments.truckId))
    .where(eq(assignments.orderId, orderId))
    .orderBy(asc(assignments.id));
}

export async function userName(db: DbOrTx, id: number): Promise<string | null> {
  const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, id)).limit(1);
  return row?.name ?? null;
}

/** A delivered load's proof photo (its upload name), if it was delivered with one. */
export async function proofPhotoOfLoad(db: DbOrTx, loadId: number): Promise<string | undefined> {
  const [row] = await db
    .select({ photo: deliveryProofs.photoPath })
    .from(deliveryProofs)
    .where(eq(deliveryProofs.assignmentId, loadId))
    .limit(1);
  return row?.photo;
}

/** The proof photo of a load of the order with this tracking token; undefined for any other pair. */
export async function proofPhotoForToken(
  db: DbOrTx,
  token: string,
  loadId: number,
): Promise<string | undefined> {
  const [row] = await db
    .select({ photo: deliveryProofs.photoPath })
    .from(deliveryProofs)
    .innerJoin(assignments, eq(assignments.id, deliveryProofs.assignmentId))
    .innerJoin(orders, eq(orders.id, assignments.orderId))
    .where(and(eq(deliveryProofs.assignmentId, loadId), eq(orders.trackingToken, token)))
    .limit(1);
  return row?.photo;
}
