import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../drizzle/db';
import { orders, payments } from '../../../drizzle/schema';
import { listedMethod } from '../../../shared/payments';
import type { TListedPayment } from '../../../shared/schemas/payments';
import type { OrderRow } from '../orders/orders.queries';

type PaymentValues = typeof payments.$inferInsert;

/** False when the order already has a payment with this reference (any letter case). */
export async function insertPaymentOnce(db: DbOrTx, values: PaymentValues): Promise<boolean> {
  const inserted = await db
    .insert(payments)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: payments.id });
  return inserted.length > 0;
}

export async function latestSubmittedPayment(db: DbOrTx, orderId: number) {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, 'SUBMITTED')))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return row;
}

export async function paymentWithReference(db: DbOrTx, orderId: number, reference: string) {
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), sql`lower(${payments.reference}) = lower(${reference})`))
    .limit(1);
  return row;
}

export async function updatePayment(db: DbOrTx, id: number, set: Partial<PaymentValues>) {
  await db.update(payments).set(set).where(eq(payments.id, id));
}

export async function insertPayment(db: DbOrTx, values: PaymentValues) {
  await db.insert(payments).values(values);
}

export async function updateOrderPayment(
  db: DbOrTx,
  orderId: number,
  set: Pick<Partial<OrderRow>, 'status' | 'paymentStatus' | 'updatedAt'>,
): Promise<OrderRow> {
  const [row] = await db.update(orders).set(set).where(eq(orders.id, orderId)).returning();
  return row!;
}

export type PaymentRow = typeof payments.$inferSelect;

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
    amount: p.amountCents === null ? null : p.amountCents / 100,
    paidAt: p.paidAt?.toISOString() ?? null,
    payerName: p.payerName,
    payerPhone: p.payerPhone,
    credit: p.creditCents / 100,
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
