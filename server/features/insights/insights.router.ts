import { latestInsights, refreshInsights, runBriefing } from '../../../core/insights/insights.service';
import { ZInsights, ZQueued } from '../../../shared/schemas/insights';
import { roleProcedure, router } from '../../trpc';

const adminProcedure = roleProcedure('ADMIN');

export const insightsRouter = router({
  insights: adminProcedure
    .meta({
      rest: { method: 'GET', path: '/api/admin/ai/insights', summary: 'AI insights and alerts to review' },
    })
    .output(ZInsights)
    .query(({ ctx }) => latestInsights(ctx.db, ctx.deps.jobs, ctx.user, ctx.now())),

  refresh: adminProcedure
    .meta({
      rest: { method: 'POST', path: '/api/admin/ai/insights/refresh', summary: 'Recompute the insights now' },
    })
    .output(ZQueued)
    .mutation(({ ctx }) => refreshInsights(ctx.db, ctx.deps.jobs, ctx.user, ctx.now())),

  runBriefing: adminProcedure
    .meta({
      rest: { method: 'POST', path: '/api/admin/articles/run', summary: 'Write the morning briefing now' },
    })
    .output(ZQueued)
    .mutation(({ ctx }) => runBriefing(ctx.db, ctx.deps.jobs, ctx.now())),
});
