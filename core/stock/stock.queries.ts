import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { costs, stockTransactions, yardStock } from '../../drizzle/schema';

export type StockTxRow = typeof stockTransactions.$inferSelect;

/** Yard stock by category, from the `yard_stock` view (the one definition of the sum). */
export async function readYardStock(db: DbOrTx) {
  const [row] = await db.select().from(yardStock);
  return {
    coarse: Number(row?.coarseTonnes ?? 0),
    smooth: Number(row?.smoothTonnes ?? 0),
    tonnes: Number(row?.tonnes ?? 0),
  };
}

export function stockMovements(db: DbOrTx, limit = 1000): Promise<StockTxRow[]> {
  return db
    .select()
    .from(stockTransactions)
    .orderBy(desc(stockTransactions.createdAt), desc(stockTransactions.id))
    .limit(limit);
}

export async function insertStockTx(
  db: DbOrTx,
  values: typeof stockTransactions.$inferInsert,
): Promise<StockTxRow> {
  const [row] = await db.insert(stockTransactions).values(values).returning();
  return row!;
}

/** The delivery's stock movement; false when this load already took its stock out (unique per load). */
export async function insertDeliveryStockTx(
  db: DbOrTx,
  values: Omit<typeof stockTransactions.$inferInsert, 'kind'>,
): Promise<boolean> {
  const inserted = await db
    .insert(stockTransactions)
    .values({ ...values, kind: 'DELIVERY' })
    .onConflictDoNothing()
    .returning({ id: stockTransactions.id });
  return inserted.length > 0;
}

export async function insertStockPurchaseCost(
  db: DbOrTx,
  values: Omit<typeof costs.$inferInsert, 'type' | 'source'>,
): Promise<number> {
  const [row] = await db
    .insert(costs)
    .values({ ...values, type: 'STOCK_PURCHASE', source: 'STOCK' })
    .returning({ id: costs.id });
  return row!.id;
}

export async function linkCostToStockTx(db: DbOrTx, costId: number, stockTxId: number) {
  await db.update(costs).set({ stockTxId }).where(eq(costs.id, costId));
}

export async function updateStockTxReason(
  db: DbOrTx,
  id: number,
  reason: string,
  now: Date,
): Promise<StockTxRow | undefined> {
  const [row] = await db
    .update(stockTransactions)
    .set({ reason, updatedAt: now })
    .where(eq(stockTransactions.id, id))
    .returning();
  return row;
}
