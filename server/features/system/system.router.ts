import { desc } from 'drizzle-orm';
import { z } from 'zod';
import { workerHeartbeats } from '../../../drizzle/schema';
import { publicProcedure, router } from '../../trpc';

export const ZHealth = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ ok: z.boolean(), driver: z.enum(['pglite', 'postgres']) }),
  jobs: z.object({
    ok: z.boolean(),
    transport: z.enum(['bullmq', 'in-process']),
    detail: z.string().optional(),
    lastHeartbeatAt: z.string().nullable(),
  }),
  time: z.string(),
});

export const systemRouter = router({
  health: publicProcedure.output(ZHealth).query(async ({ ctx }) => {
    const { database, jobs } = ctx.deps;
    const [dbOk, jobHealth] = await Promise.all([
      database.ping(),
      jobs.health().catch(() => ({ ok: false })),
    ]);
    let lastHeartbeatAt: string | null = null;
    if (dbOk) {
      const [beat] = await ctx.db
        .select({ seenAt: workerHeartbeats.seenAt })
        .from(workerHeartbeats)
        .orderBy(desc(workerHeartbeats.seenAt))
        .limit(1);
      lastHeartbeatAt = beat?.seenAt.toISOString() ?? null;
    }
    return {
      status: dbOk && jobHealth.ok ? ('ok' as const) : ('degraded' as const),
      database: { ok: dbOk, driver: database.driver },
      jobs: { ...jobHealth, transport: jobs.transport, lastHeartbeatAt },
      time: ctx.now().toISOString(),
    };
  }),
});
