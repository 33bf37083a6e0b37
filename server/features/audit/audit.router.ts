import { listAudit, reviewDuplicate, voidDuplicate } from '../../../core/audit/audit.service';
import {
  ZAuditActionResult,
  ZAuditListInput,
  ZAuditRecord,
  ZAuditReviewInput,
  ZAuditVoidInput,
} from '../../../shared/schemas/money';
import { roleProcedure, router } from '../../trpc';

const adminProcedure = roleProcedure('ADMIN');

export const auditRouter = router({
  list: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/audit/duplicates',
        summary: 'Duplicate-flagged costs and fuel logs (limit, entity, status, type, truckId, from, to)',
        example: { limit: '400', entity: 'fuel', status: 'pending', from: '2026-11-01', to: '2026-11-23' },
      },
    })
    .input(ZAuditListInput)
    .output(ZAuditRecord.array())
    .query(({ ctx, input }) => listAudit(ctx.db, input)),

  review: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/audit/duplicates/:entity/:id/review',
        summary: 'Mark a duplicate record reviewed (optional note)',
        errors: [409],
        example: { entity: 'cost', id: '42', note: 'Two receipts for one repair; both genuine.' },
      },
    })
    .input(ZAuditReviewInput)
    .output(ZAuditActionResult)
    .mutation(({ ctx, input }) => reviewDuplicate(ctx.db, ctx.user, input, ctx.now())),

  void: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/audit/duplicates/:entity/:id/void',
        summary: 'Void a duplicate record (reason required; cascadeCost for fuel)',
        errors: [409],
        example: { entity: 'fuel', id: '42', reason: 'Entered twice at the pump.', cascadeCost: true },
      },
    })
    .input(ZAuditVoidInput)
    .output(ZAuditActionResult)
    .mutation(({ ctx, input }) => voidDuplicate(ctx.db, ctx.user, input, ctx.now())),
});
