import { activityFilters, listActivity } from '../../../core/activity/activity.service';
import { ZActivityEntry, ZActivityFilters, ZActivityQuery } from '../../../shared/schemas/activity';
import { roleProcedure, router } from '../../trpc';

const adminProcedure = roleProcedure('ADMIN');

/** The staff action log: read-only by design (no procedure changes or deletes an entry). */
export const activityRouter = router({
  list: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/activity',
        summary:
          'The action log, newest first (userId, entity, from, to as YYYY-MM-DD or ISO instant, limit)',
        example: { userId: '3', entity: 'cost', from: '2026-11-01', to: '2026-11-23', limit: '200' },
      },
    })
    .input(ZActivityQuery)
    .output(ZActivityEntry.array())
    .query(({ ctx, input }) => listActivity(ctx.db, input)),

  filters: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/activity/filters',
        summary: 'The people and entities the action log holds (for its filters)',
      },
    })
    .output(ZActivityFilters)
    .query(({ ctx }) => activityFilters(ctx.db, ctx.deps.settings)),
});
