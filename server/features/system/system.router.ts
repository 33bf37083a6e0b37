import { type THealth, ZHealth } from '../../../shared/schemas/system';
import { publicProcedure, router } from '../../trpc';
import { health } from './system.service';

export const systemRouter = router({
  health: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/health',
        summary: 'Liveness of the database and the job transport',
        statusOf: (r) => ((r as THealth).database.ok ? 200 : 503),
      },
    })
    .output(ZHealth)
    .query(({ ctx }) => health(ctx.db, ctx.deps, ctx.now())),
});
