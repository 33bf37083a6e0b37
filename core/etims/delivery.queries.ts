import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { invoices, pricingSettings, yardStockBalance } from '../../drizzle/schema';
import { type SandType, UNSIGNED_INVOICE_STATUSES } from '../../shared/enums';
import type { InvoiceRow } from '../invoices/invoices.queries';

/** The lowest-numbered invoice of the branch KRA has not signed: sales go in number order, without gaps. */
export async function nextUnsigned(db: DbOrTx, branchId: string): Promise<InvoiceRow | undefined> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.branchId, branchId), inArray(invoices.status, UNSIGNED_INVOICE_STATUSES)))
    .orderBy(asc(invoices.number))
    .limit(1);
  return row;
}

/** Signed invoices whose stock movement is still to send, in number order. */
export function stockToSend(db: DbOrTx, branchId: string, limit = 50): Promise<InvoiceRow[]> {
  return db
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.branchId, branchId),
        eq(invoices.status, 'signed'),
        eq(invoices.stockStatus, 'pending'),
      ),
    )
    .orderBy(asc(invoices.number))
    .limit(limit);
}

export async function countUnsigned(db: DbOrTx, branchId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(invoices)
    .where(and(eq(invoices.branchId, branchId), inArray(invoices.status, ['pending', 'sent'])));
  return row?.n ?? 0;
}

/** Yard stock of a sand type now (receipts in, delivered loads out): the item's remaining quantity. */
export async function yardTonnes(db: DbOrTx, category: SandType): Promise<number> {
  const [row] = await db
    .select({ tonnes: yardStockBalance.tonnes })
    .from(yardStockBalance)
    .where(eq(yardStockBalance.category, category))
    .limit(1);
  return Number(row?.tonnes ?? 0);
}

/** The base price per truck: a tonne's default price when the items are registered. */
export async function basePriceCents(db: DbOrTx): Promise<number> {
  const [row] = await db
    .select({ cents: pricingSettings.basePriceCents })
    .from(pricingSettings)
    .where(eq(pricingSettings.id, 1))
    .limit(1);
  return row?.cents ?? 3_200_000;
}
