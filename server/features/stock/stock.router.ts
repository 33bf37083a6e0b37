import { editStockNote, listStockTx, recordReceipt, stockSummary } from '../../../core/stock/stock.service';
import { ZStock, ZStockReceiptInput, ZStockTx, ZStockTxNoteInput } from '../../../shared/schemas/stock';
import { idempotent } from '../../idempotency';
import { roleProcedure, router } from '../../trpc';

export const stockRouter = router({
  get: roleProcedure('ADMIN', 'OPS')
    .meta({ rest: { method: 'GET', path: '/api/admin/stock', summary: 'Yard stock' } })
    .output(ZStock)
    .query(({ ctx }) => stockSummary(ctx.db, ctx.deps.settings)),

  transactions: roleProcedure('ADMIN', 'OPS')
    .meta({ rest: { method: 'GET', path: '/api/admin/stock/tx', summary: 'Stock movements' } })
    .output(ZStockTx.array())
    .query(({ ctx }) => listStockTx(ctx.db)),

  /** A yard receipt: trucks × 20 t into stock and its STOCK_PURCHASE cost, together or not at all. */
  receipt: roleProcedure('ADMIN', 'OPS')
    .meta({
      idempotent: true,
      rest: {
        method: 'POST',
        path: '/api/admin/stock/receipt',
        summary: 'Record a yard receipt (and its STOCK_PURCHASE cost)',
        status: 201,
        example: {
          truckId: 'T-001',
          trucks: 2.5,
          category: 'smooth',
          costPerTonne: 850,
          description: 'Yard receipt',
        },
      },
    })
    .input(ZStockReceiptInput)
    .use(idempotent)
    .output(ZStockTx)
    .mutation(({ ctx, input }) => recordReceipt(ctx.db, ctx.user, input, ctx.now())),

  updateNote: roleProcedure('ADMIN')
    .meta({
      rest: {
        method: 'PATCH',
        path: '/api/admin/stock/tx/:id',
        summary: "Edit a movement's note",
        example: { id: '42', reason: 'Receipt from Mwea quarry, ticket 5521' },
      },
    })
    .input(ZStockTxNoteInput)
    .output(ZStockTx)
    .mutation(({ ctx, input }) => editStockNote(ctx.db, input.id, input.reason, ctx.now())),
});
