import { desc, eq } from 'drizzle-orm';
import { costs, stockTransactions, trucks } from '../../../drizzle/schema';
import { TRUCK_LOAD_TONNES } from '../../../shared/constants';
import {
  STOCK_MESSAGES,
  ZStock,
  ZStockReceiptInput,
  ZStockTx,
  ZStockTxNoteInput,
} from '../../../shared/schemas/stock';
import { appError } from '../../errors';
import { roleProcedure, router } from '../../trpc';
import { stockSummary } from './stock.queries';

function toTx(row: typeof stockTransactions.$inferSelect) {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    kind: row.kind,
    trucks: row.trucks,
    tonnes: row.tonnes,
    category: row.category,
    truck_id: row.truckId,
    reason: row.reason,
  };
}

export const stockRouter = router({
  get: roleProcedure('ADMIN', 'OPS')
    .output(ZStock)
    .query(({ ctx }) => stockSummary(ctx)),

  transactions: roleProcedure('ADMIN', 'OPS')
    .output(ZStockTx.array())
    .query(async ({ ctx }) =>
      (
        await ctx.db
          .select()
          .from(stockTransactions)
          .orderBy(desc(stockTransactions.createdAt), desc(stockTransactions.id))
          .limit(1000)
      ).map(toTx),
    ),

  /** A yard receipt: trucks × 20 t into stock and its STOCK_PURCHASE cost, together or not at all. */
  receipt: roleProcedure('ADMIN', 'OPS')
    .input(ZStockReceiptInput)
    .output(ZStockTx)
    .mutation(async ({ ctx, input }) => {
      const [truck] = await ctx.db
        .select({ id: trucks.id })
        .from(trucks)
        .where(eq(trucks.id, input.truckId))
        .limit(1);
      if (!truck) throw appError('BAD_REQUEST', STOCK_MESSAGES.truckRequired);
      const tonnes = Math.round(input.trucks * TRUCK_LOAD_TONNES * 100) / 100;
      const costPerTonneCents = Math.round(input.costPerTonne * 100);
      const description = input.description || 'Yard receipt';
      const tx = await ctx.db.transaction(async (db) => {
        const [row] = await db
          .insert(stockTransactions)
          .values({
            kind: 'RECEIPT',
            trucks: input.trucks,
            tonnes,
            category: input.category,
            truckId: input.truckId,
            reason: description,
            costPerTonneCents,
            createdById: ctx.user.id,
          })
          .returning();
        await db.insert(costs).values({
          type: 'STOCK_PURCHASE',
          truckId: input.truckId,
          amountCents: Math.round(tonnes * costPerTonneCents),
          description: `${description}: ${tonnes} t ${input.category} sand`,
          incurredAt: ctx.now(),
          source: 'STOCK',
          stockTxId: row!.id,
          createdById: ctx.user.id,
        });
        return row!;
      });
      return toTx(tx);
    }),

  updateNote: roleProcedure('ADMIN')
    .input(ZStockTxNoteInput)
    .output(ZStockTx)
    .mutation(async ({ ctx, input }) => {
      const [row] = await ctx.db
        .update(stockTransactions)
        .set({ reason: input.reason, updatedAt: ctx.now() })
        .where(eq(stockTransactions.id, input.id))
        .returning();
      if (!row) throw appError('NOT_FOUND', STOCK_MESSAGES.txNotFound);
      return toTx(row);
    }),
});
