import { health, liveness, readiness } from '../../../core/system/system.service';
import {
  type THealth,
  type TReadiness,
  ZHealth,
  ZLiveness,
  ZReadiness,
} from '../../../shared/schemas/system';
import { publicProcedure, router } from '../../trpc';

export const systemRouter = router({
  health: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/health',
        summary: 'Liveness of the database and the job transport',
        // 503 when the database cannot be reached or cannot take a write (read-only, disk full).
        statusOf: (r) => ((r as THealth).database.ok && (r as THealth).database.writable ? 200 : 503),
      },
    })
    .output(ZHealth)
    .query(({ ctx }) => health(ctx.db, ctx.deps, ctx.now())),

  livez: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/livez',
        summary: 'Liveness probe: the process answers (no dependency is checked)',
      },
    })
    .output(ZLiveness)
    .query(({ ctx }) => liveness(ctx.now())),

  readyz: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/readyz',
        summary:
          'Readiness probe: database reachable and writable, migrations applied, job queue and schedules registered (503 naming what is not)',
        statusOf: (r) => ((r as TReadiness).status === 'ready' ? 200 : 503),
      },
    })
    .output(ZReadiness)
    .query(({ ctx }) => readiness(ctx.db, ctx.deps, ctx.now())),
});
