import { and, asc, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { type DbOrTx, rows } from '../../../drizzle/db';
import { mpesaCallbacks, mpesaStkRequests, orders, outbox, payments, users } from '../../../drizzle/schema';

export type StkRequestRow = typeof mpesaStkRequests.$inferSelect;

export async function findOrder(db: DbOrTx, id: number) {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
  return row;
}

export async function orderExists(db: DbOrTx, id: number): Promise<boolean> {
  const rows = await db.select({ id: orders.id }).from(orders).where(eq(orders.id, id)).limit(1);
  return rows.length > 0;
}

/** The order's prompts sent since `since`, newest first. */
export function promptsSince(db: DbOrTx, orderId: number, since: Date) {
  return db
    .select()
    .from(mpesaStkRequests)
    .where(and(eq(mpesaStkRequests.orderId, orderId), gt(mpesaStkRequests.createdAt, since)))
    .orderBy(desc(mpesaStkRequests.createdAt));
}

export async function countPaidPrompts(db: DbOrTx, orderId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(mpesaStkRequests)
    .where(and(eq(mpesaStkRequests.orderId, orderId), eq(mpesaStkRequests.status, 'PAID')));
  return Number(row?.n ?? 0);
}

export async function insertStkRequest(db: DbOrTx, values: typeof mpesaStkRequests.$inferInsert) {
  const [row] = await db.insert(mpesaStkRequests).values(values).returning();
  return row!;
}

export async function findPrompt(db: DbOrTx, orderId: number, checkoutRequestId: string) {
  const [row] = await db
    .select()
    .from(mpesaStkRequests)
    .where(
      and(eq(mpesaStkRequests.orderId, orderId), eq(mpesaStkRequests.checkoutRequestId, checkoutRequestId)),
    )
    .limit(1);
  return row;
}

export async function receiptOfPrompt(db: DbOrTx, checkoutRequestId: string): Promise<string | null> {
  const [row] = await db
    .select({ receipt: payments.mpesaReceipt })
    .from(payments)
    .where(eq(payments.checkoutRequestId, checkoutRequestId))
    .limit(1);
  return row?.receipt ?? null;
}

/** Stores a callback as it came; validation answers are final at once (nothing to process after). */
export async function insertCallback(
  db: DbOrTx,
  values: typeof mpesaCallbacks.$inferInsert,
): Promise<number> {
  const [row] = await db.insert(mpesaCallbacks).values(values).returning({ id: mpesaCallbacks.id });
  return row!.id;
}

/**
 * Stores callbacks as they came, each with its `mpesa.process` outbox row (the payload and dedupe id
 * `writeOutbox` would write), in one statement: atomic as a transaction, but one round trip and one commit
 * for all of them. Their ids come back in the order given.
 */
export async function insertCallbacksWithJobs(
  db: DbOrTx,
  callbacks: Array<{ kind: 'STK' | 'C2B_CONFIRMATION'; body: string; sourceIp: string; receivedAt: Date }>,
): Promise<number[]> {
  const values = sql.join(
    callbacks.map(
      (cb, i) =>
        sql`(${i}::int, ${cb.kind}, ${cb.body}, ${cb.sourceIp}, ${cb.receivedAt.toISOString()}::timestamptz)`,
    ),
    sql`, `,
  );
  const inserted = await rows<{ id: string | number }>(
    db,
    sql`with given (n, kind, body, source_ip, received_at) as (values ${values}),
        cb as (
          insert into ${mpesaCallbacks} (kind, body, source_ip, received_at)
          select kind, body, source_ip, received_at from given order by n
          returning id
        ), job as (
          insert into ${outbox} (job, payload, dedupe_id)
          select 'mpesa.process', jsonb_build_object('callbackId', cb.id), 'mpesa.process:' || cb.id from cb
        )
        select id from cb order by id`,
  );
  return inserted.map((r) => Number(r.id));
}

export function unmatchedPayments(db: DbOrTx, limit = 200) {
  return db
    .select()
    .from(payments)
    .where(isNull(payments.orderId))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(limit);
}

export async function lockPayment(db: DbOrTx, id: number) {
  const [row] = await db.select().from(payments).where(eq(payments.id, id)).for('update').limit(1);
  return row;
}

/** A payment of the order with this reference (any letter case): the unique key a match must respect. */
export async function sameReference(db: DbOrTx, orderId: number, reference: string) {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), sql`lower(${payments.reference}) = lower(${reference})`))
    .limit(1);
  return row;
}

export async function updatePayment(db: DbOrTx, id: number, set: Partial<typeof payments.$inferInsert>) {
  const [row] = await db.update(payments).set(set).where(eq(payments.id, id)).returning();
  return row!;
}

export async function deletePayment(db: DbOrTx, id: number) {
  await db.delete(payments).where(eq(payments.id, id));
}

export async function userName(db: DbOrTx, id: number): Promise<string> {
  const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, id)).limit(1);
  return row?.name ?? '';
}

/** Prompts with no result that were sent before `sentBefore`. */
export function quietPrompts(db: DbOrTx, sentBefore: Date, limit = 200) {
  return db
    .select()
    .from(mpesaStkRequests)
    .where(and(eq(mpesaStkRequests.status, 'PENDING'), lt(mpesaStkRequests.createdAt, sentBefore)))
    .orderBy(asc(mpesaStkRequests.createdAt))
    .limit(limit);
}

/** Callbacks not processed since before `before`, and those that could not be read. */
export function openCallbacks(db: DbOrTx, before: Date, limit = 200) {
  return db
    .select({
      id: mpesaCallbacks.id,
      kind: mpesaCallbacks.kind,
      receivedAt: mpesaCallbacks.receivedAt,
      error: mpesaCallbacks.error,
    })
    .from(mpesaCallbacks)
    .where(
      or(
        and(isNull(mpesaCallbacks.processedAt), lt(mpesaCallbacks.receivedAt, before)),
        eq(mpesaCallbacks.outcome, 'unreadable'),
      ),
    )
    .orderBy(asc(mpesaCallbacks.receivedAt))
    .limit(limit);
}

/** Orders whose confirmed payments carry a credit (paid beyond what they owed). */
export function ordersWithCredit(db: DbOrTx, limit = 200) {
  return db
    .select({
      orderId: orders.id,
      name: orders.name,
      creditCents: sql<number>`sum(${payments.creditCents})::float8`,
    })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(and(eq(payments.status, 'CONFIRMED'), gt(payments.creditCents, 0)))
    .groupBy(orders.id, orders.name)
    .orderBy(desc(orders.id))
    .limit(limit);
}
