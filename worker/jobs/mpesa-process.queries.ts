import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { mpesaCallbacks, mpesaStkRequests, orders, payments } from '../../drizzle/schema';

export type CallbackRow = typeof mpesaCallbacks.$inferSelect;
export type StkRequestRow = typeof mpesaStkRequests.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
type PaymentValues = typeof payments.$inferInsert;

/** The callback, locked until the transaction ends (a re-run job waits, then sees it processed). */
export async function lockCallback(db: DbOrTx, id: number): Promise<CallbackRow | undefined> {
  const [row] = await db
    .select()
    .from(mpesaCallbacks)
    .where(eq(mpesaCallbacks.id, id))
    .for('update')
    .limit(1);
  return row;
}

export async function markCallback(
  db: DbOrTx,
  id: number,
  set: { processedAt: Date | null; ref?: string | null; outcome?: string | null; error?: string | null },
) {
  await db.update(mpesaCallbacks).set(set).where(eq(mpesaCallbacks.id, id));
}

export async function insertCallback(
  db: DbOrTx,
  values: typeof mpesaCallbacks.$inferInsert,
): Promise<number> {
  const [row] = await db.insert(mpesaCallbacks).values(values).returning({ id: mpesaCallbacks.id });
  return row!.id;
}

export async function lockStkRequest(
  db: DbOrTx,
  checkoutRequestId: string,
): Promise<StkRequestRow | undefined> {
  const [row] = await db
    .select()
    .from(mpesaStkRequests)
    .where(eq(mpesaStkRequests.checkoutRequestId, checkoutRequestId))
    .for('update')
    .limit(1);
  return row;
}

export async function updateStkRequest(
  db: DbOrTx,
  id: number,
  set: Partial<typeof mpesaStkRequests.$inferInsert>,
) {
  await db.update(mpesaStkRequests).set(set).where(eq(mpesaStkRequests.id, id));
}

/** Inserts the payment unless its receipt or CheckoutRequestID is already recorded (then undefined). */
export async function insertPaymentOnce(db: DbOrTx, values: PaymentValues): Promise<PaymentRow | undefined> {
  const [row] = await db.insert(payments).values(values).onConflictDoNothing().returning();
  return row;
}

export async function paymentByReceipt(db: DbOrTx, receipt: string): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.mpesaReceipt, receipt)).limit(1);
  return row;
}

export async function paymentByCheckout(
  db: DbOrTx,
  checkoutRequestId: string,
): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(eq(payments.checkoutRequestId, checkoutRequestId))
    .limit(1);
  return row;
}

/** A payment of the order typed with this reference (any letter case) by the customer or ops. */
export async function typedPayment(db: DbOrTx, orderId: number, reference: string) {
  const [row] = await db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.orderId, orderId),
        sql`lower(${payments.reference}) = lower(${reference})`,
        isNull(payments.mpesaReceipt),
      ),
    )
    .limit(1);
  return row;
}

/**
 * An STK payment of the order known only from a status query (its receipt still unknown) for this amount:
 * the C2B confirmation of the same money, arriving later, names its receipt.
 */
export async function paymentAwaitingReceipt(db: DbOrTx, orderId: number, amountCents: number) {
  const [row] = await db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.orderId, orderId),
        eq(payments.source, 'MPESA_STK'),
        isNull(payments.mpesaReceipt),
        eq(payments.amountCents, amountCents),
      ),
    )
    .orderBy(payments.createdAt)
    .limit(1);
  return row;
}

export async function updatePayment(
  db: DbOrTx,
  id: number,
  set: Partial<PaymentValues>,
): Promise<PaymentRow> {
  const [row] = await db.update(payments).set(set).where(eq(payments.id, id)).returning();
  return row!;
}

export async function lockPayment(db: DbOrTx, id: number): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id)).for('update').limit(1);
  return row;
}

export async function orderExists(db: DbOrTx, id: number): Promise<boolean> {
  const rows = await db.select({ id: orders.id }).from(orders).where(eq(orders.id, id)).limit(1);
  return rows.length > 0;
}

export async function lockOrder(db: DbOrTx, id: number): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).for('update').limit(1);
  return row;
}

/** What the order's other confirmed payments paid (cents), this one left out. */
export async function paidBefore(db: DbOrTx, orderId: number, exceptPaymentId: number): Promise<number> {
  const [row] = await db
    .select({ cents: sql<number>`coalesce(sum(${payments.amountCents}), 0)::float8` })
    .from(payments)
    .where(
      and(eq(payments.orderId, orderId), eq(payments.status, 'CONFIRMED'), ne(payments.id, exceptPaymentId)),
    );
  return Number(row?.cents ?? 0);
}

export async function updateOrder(
  db: DbOrTx,
  id: number,
  set: Pick<Partial<OrderRow>, 'status' | 'paymentStatus' | 'updatedAt'>,
) {
  await db.update(orders).set(set).where(eq(orders.id, id));
}
