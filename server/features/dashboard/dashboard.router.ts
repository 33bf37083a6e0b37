import { overview } from '../../../core/dashboard/dashboard.service';
import { ZDashboard } from '../../../shared/schemas/dashboard';
import { roleProcedure, router } from '../../trpc';

export const dashboardRouter = router({
  get: roleProcedure('ADMIN')
    .meta({ rest: { method: 'GET', path: '/api/admin/dashboard', summary: 'Workspace overview' } })
    .output(ZDashboard)
    .query(({ ctx }) => overview(ctx.db, ctx.deps.settings, ctx.now())),
});
