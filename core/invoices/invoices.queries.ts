import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../drizzle/db';
import { assignments, invoices, orders, payments, users } from '../../drizzle/schema';
import { fromCents } from '../../shared/domain/money';
import { traderInvoiceNo } from '../../shared/etims/payloads';
import {
  creditNotePath,
  type InvoiceStatus,
  receiptPath,
  type TOrderCreditNote,
} from '../../shared/schemas/invoices';

export type InvoiceRow = typeof invoices.$inferSelect;
export type NewInvoice = typeof invoices.$inferInsert;

export async function insertInvoice(tx: DbOrTx, values: NewInvoice): Promise<InvoiceRow> {
  const [row] = await tx.insert(invoices).values(values).returning();
  return row!;
}

/** The sale of a paid cash order, if it has one. */
export async function orderSale(db: DbOrTx, orderId: number): Promise<InvoiceRow | undefined> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, 'S'), eq(invoices.source, 'order')))
    .limit(1);
  return row;
}

export async function lockInvoice(tx: DbOrTx, id: number): Promise<InvoiceRow | undefined> {
  const [row] = await tx.select().from(invoices).where(eq(invoices.id, id)).for('update').limit(1);
  return row;
}

export async function invoiceById(db: DbOrTx, id: number): Promise<InvoiceRow | undefined> {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, id)).limit(1);
  return row;
}

/** The credit notes against a sale, oldest first. */
export function creditNotesOf(db: DbOrTx, saleId: number): Promise<InvoiceRow[]> {
  return db.select().from(invoices).where(eq(invoices.originalId, saleId)).orderBy(asc(invoices.number));
}

/** Every invoice of the given orders (sales and credit notes), for the order listings. */
export function invoicesOfOrders(db: DbOrTx, orderIds: number[]) {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db
    .select({
      id: invoices.id,
      orderId: invoices.orderId,
      kind: invoices.kind,
      source: invoices.source,
      number: invoices.number,
      status: invoices.status,
      totalCents: invoices.totalCents,
    })
    .from(invoices)
    .where(inArray(invoices.orderId, orderIds))
    .orderBy(asc(invoices.number));
}

/** Confirmed payments of an order (how it was paid, and with which reference). */
export function confirmedPayments(db: DbOrTx, orderId: number) {
  return db
    .select({
      method: payments.method,
      reference: payments.reference,
      mpesaReceipt: payments.mpesaReceipt,
      amountCents: payments.amountCents,
      paidAt: payments.paidAt,
      createdAt: payments.createdAt,
    })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, 'CONFIRMED')))
    .orderBy(asc(payments.id));
}

/** Tonnes delivered on an order (its loads marked delivered). */
export async function deliveredTonnes(db: DbOrTx, orderId: number): Promise<number> {
  const [row] = await db
    .select({ t: sql<string>`coalesce(sum(${assignments.tonnes}), 0)` })
    .from(assignments)
    .where(and(eq(assignments.orderId, orderId), eq(assignments.status, 'DELIVERED')));
  return Number(row?.t ?? 0);
}

export async function updateInvoice(db: DbOrTx, id: number, values: Partial<NewInvoice>) {
  const [row] = await db.update(invoices).set(values).where(eq(invoices.id, id)).returning();
  return row;
}

const original = alias(invoices, 'original');

/** The finance view: invoices, newest first, optionally of one status, with the sale a credit note reverses. */
export function listInvoices(db: DbOrTx, status: InvoiceStatus | undefined, limit = 300) {
  return db
    .select({ invoice: invoices, originalNumber: original.number, trackingToken: orders.trackingToken })
    .from(invoices)
    .leftJoin(original, eq(original.id, invoices.originalId))
    .leftJoin(orders, eq(orders.id, invoices.orderId))
    .where(status ? eq(invoices.status, status) : undefined)
    .orderBy(desc(invoices.number), desc(invoices.id))
    .limit(limit);
}

export async function countsByStatus(db: DbOrTx, branchId: string) {
  const rows = await db
    .select({ status: invoices.status, n: sql<number>`count(*)::int` })
    .from(invoices)
    .where(eq(invoices.branchId, branchId))
    .groupBy(invoices.status);
  return rows;
}

/** The order's customer's screen language (documents are written in it), when the order has an account. */
export async function customerLanguage(db: DbOrTx, customerId: number | null): Promise<'en' | 'sw' | null> {
  if (customerId === null) return null;
  const [row] = await db
    .select({ language: users.language })
    .from(users)
    .where(eq(users.id, customerId))
    .limit(1);
  return row?.language ?? null;
}

/**
 * What the order listings carry of each order's invoices (schemas/invoices orderDocumentFields): its
 * receipt and eTIMS status once paid, and its credit notes.
 */
export async function orderDocuments(db: DbOrTx, list: readonly { id: number; trackingToken: string }[]) {
  const out = new Map<
    number,
    { receiptUrl: string | null; etimsStatus: InvoiceStatus | null; creditNotes: TOrderCreditNote[] }
  >();
  for (const o of list) out.set(o.id, { receiptUrl: null, etimsStatus: null, creditNotes: [] });
  const tokens = new Map(list.map((o) => [o.id, o.trackingToken]));
  for (const r of await invoicesOfOrders(
    db,
    list.map((o) => o.id),
  )) {
    const entry = r.orderId === null ? undefined : out.get(r.orderId);
    const token = r.orderId === null ? undefined : tokens.get(r.orderId);
    if (!entry || !token || r.orderId === null) continue;
    if (r.kind === 'S' && r.source === 'order') {
      entry.receiptUrl = receiptPath(r.orderId, token);
      entry.etimsStatus = r.status;
    } else if (r.kind === 'R')
      entry.creditNotes.push({
        label: traderInvoiceNo('R', r.number),
        amount: fromCents(r.totalCents),
        etimsStatus: r.status,
        url: creditNotePath(r.orderId, r.number, token),
      });
  }
  return out;
}
