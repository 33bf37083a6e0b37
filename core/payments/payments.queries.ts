import { and, asc, desc, eq, gt, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { orders, payments } from '../../drizzle/schema';
import { fromCents } from '../../shared/domain/money';
import { MPESA_METHODS } from '../../shared/domain/payments';
import { listedMethod } from '../../shared/payments';
import type { TListedPayment } from '../../shared/schemas/payments';

// Every SQL statement on payment rows, for the typed confirmation, the ops review, M-Pesa's callbacks and
// the ops' M-Pesa views. (An order's payment status is set here too: it moves only with its payments.)

export type PaymentRow = typeof payments.$inferSelect;
type PaymentValues = typeof payments.$inferInsert;
type OrderRow = typeof orders.$inferSelect;

/**
 * Inserts the payment unless a unique key already holds it (the order's reference, the M-Pesa receipt,
 * the CheckoutRequestID, a receipt settled elsewhere): then undefined.
 */
export async function insertPaymentOnce(db: DbOrTx, values: PaymentValues): Promise<PaymentRow | undefined> {
  const [row] = await db.insert(payments).values(values).onConflictDoNothing().returning();
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

export async function deletePayment(db: DbOrTx, id: number) {
  await db.delete(payments).where(eq(payments.id, id));
}

export async function findPayment(db: DbOrTx, id: number): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id)).limit(1);
  return row;
}

/** The payment, locked until the transaction ends (take the order's lock first, if it has one). */
export async function lockPayment(db: DbOrTx, id: number): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id)).for('update').limit(1);
  return row;
}

/** The order's payment with this reference (any letter case): the key a confirmation is replayed by. */
export async function paymentWithReference(
  db: DbOrTx,
  orderId: number,
  reference: string,
): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), sql`lower(${payments.reference}) = lower(${reference})`))
    .limit(1);
  return row;
}

export async function latestSubmittedPayment(db: DbOrTx, orderId: number): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, 'SUBMITTED')))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return row;
}

/** When the customer's confirmations of the order since `since` were made, oldest first. */
export async function customerConfirmationsSince(db: DbOrTx, orderId: number, since: Date): Promise<Date[]> {
  const rows = await db
    .select({ at: payments.createdAt })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.source, 'CUSTOMER'), gt(payments.createdAt, since)))
    .orderBy(asc(payments.createdAt));
  return rows.map((r) => r.at);
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

/**
 * The confirmed M-Pesa payment whose reference is this receipt (any letter case), on any order or none,
 * other than `exceptId`: a receipt settles one payment (`payments_settled_receipt_key`).
 */
export async function settledReceiptHolder(
  db: DbOrTx,
  receipt: string,
  exceptId = 0,
): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.status, 'CONFIRMED'),
        inArray(payments.method, [...MPESA_METHODS]),
        sql`upper(${payments.reference}) = upper(${receipt})`,
        ne(payments.id, exceptId),
      ),
    )
    .limit(1);
  return row;
}

/**
 * The order's M-Pesa payment of this amount that one report recorded and the other has not named yet, the
 * same money reported twice: an STK payment known from a status query, with no receipt (a C2B confirmation
 * names it: `missing: 'receipt'`), or a C2B payment recorded since the prompt was sent and tied to no prompt
 * (a status query says the prompt was paid: `missing: 'prompt'`).
 */
export async function awaitingOtherReport(
  db: DbOrTx,
  orderId: number,
  amountCents: number,
  missing: { receipt: true } | { promptSentAt: Date },
): Promise<PaymentRow | undefined> {
  const which =
    'receipt' in missing
      ? and(eq(payments.source, 'MPESA_STK'), isNull(payments.mpesaReceipt))
      : and(
          eq(payments.source, 'MPESA_C2B'),
          isNull(payments.checkoutRequestId),
          gt(payments.createdAt, missing.promptSentAt),
        );
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.amountCents, amountCents), which))
    .orderBy(payments.createdAt)
    .limit(1);
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

export async function updateOrderPayment(
  db: DbOrTx,
  orderId: number,
  set: Pick<Partial<OrderRow>, 'status' | 'paymentStatus' | 'updatedAt'>,
): Promise<OrderRow> {
  const [row] = await db.update(orders).set(set).where(eq(orders.id, orderId)).returning();
  return row!;
}

/** M-Pesa payments whose account number was no order's. */
export const unmatched = isNull(payments.orderId);

/** A page of the unmatched payments, newest first (by arrival); `beforeId` continues after a page. */
export function unmatchedPayments(db: DbOrTx, page: { limit: number; beforeId?: number | undefined }) {
  return db
    .select()
    .from(payments)
    .where(and(unmatched, page.beforeId === undefined ? undefined : lt(payments.id, page.beforeId)))
    .orderBy(desc(payments.id))
    .limit(page.limit);
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

/** What an order's payments add up to: paid (amounts of confirmed ones), credit, and the list. */
export interface OrderPayments {
  paidCents: number;
  creditCents: number;
  payments: TListedPayment[];
}

export function toListedPayment(p: PaymentRow): TListedPayment {
  return {
    id: p.id,
    method: listedMethod(p.method),
    reference: p.reference,
    verified: p.source === 'MPESA_C2B' || p.source === 'MPESA_STK',
    source: p.source,
    status: p.status,
    amount: p.amountCents === null ? null : fromCents(p.amountCents),
    paidAt: p.paidAt?.toISOString() ?? null,
    payerName: p.payerName,
    payerPhone: p.payerPhone,
    credit: fromCents(p.creditCents),
    createdAt: p.createdAt.toISOString(),
  };
}

/** The payments of these orders, oldest first, with their sums per order. */
export async function paymentsOfOrders(db: DbOrTx, orderIds: number[]): Promise<Map<number, OrderPayments>> {
  const out = new Map<number, OrderPayments>();
  if (orderIds.length === 0) return out;
  const list = await db
    .select()
    .from(payments)
    .where(inArray(payments.orderId, orderIds))
    .orderBy(asc(payments.createdAt), asc(payments.id));
  for (const p of list) {
    const entry = out.get(p.orderId!) ?? { paidCents: 0, creditCents: 0, payments: [] };
    if (p.status === 'CONFIRMED') {
      entry.paidCents += p.amountCents ?? 0;
      entry.creditCents += p.creditCents;
    }
    entry.payments.push(toListedPayment(p));
    out.set(p.orderId!, entry);
  }
  return out;
}
