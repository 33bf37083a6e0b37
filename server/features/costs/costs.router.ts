import { createCost, listCosts, updateCost } from '../../../core/costs/costs.service';
import { ZCost, ZCostInput, ZCostUpdateInput } from '../../../shared/schemas/money';
import { idempotent } from '../../idempotency';
import { roleProcedure, router } from '../../trpc';

export const costsRouter = router({
  list: roleProcedure('ADMIN', 'OPS')
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/costs',
        summary: 'Cost ledger, newest first',
      },
    })
    .output(ZCost.array())
    .query(({ ctx }) => listCosts(ctx.db, ctx.user)),

  create: roleProcedure('ADMIN', 'OPS')
    .meta({
      idempotent: true,
      rest: {
        method: 'POST',
        path: '/api/admin/costs',
        summary:
          'Record a cost (409 with duplicate flag when suspected; resend with overrideDuplicate and duplicateOf)',
        status: 201,
        duplicateConflict: true,
        errors: [409],
        example: {
          truckId: 'T-001',
          type: 'REPAIR',
          amount: 7250,
          description: 'Rear tyre puncture, Juja',
          incurredAt: '2026-11-23T08:15:00.000Z',
        },
      },
    })
    .input(ZCostInput)
    .use(idempotent)
    .output(ZCost)
    .mutation(({ ctx, input }) => createCost(ctx.db, ctx.user, input, ctx.now())),

  update: roleProcedure('ADMIN')
    .meta({
      rest: {
        method: 'PATCH',
        path: '/api/admin/costs/:id',
        summary: 'Correct a cost',
        example: {
          id: '42',
          truckId: 'T-001',
          type: 'REPAIR',
          amount: 7500,
          description: 'Rear tyre replaced, Juja',
        },
      },
    })
    .input(ZCostUpdateInput)
    .output(ZCost)
    .mutation(({ ctx, input }) => updateCost(ctx.db, input, ctx.now())),
});
