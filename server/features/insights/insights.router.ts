import { desc } from 'drizzle-orm';
import { z } from 'zod';
import { aiInsights } from '../../../drizzle/schema';
import { JobTransportUnavailableError } from '../../../shared/jobs';
import { appError } from '../../errors';
import { roleProcedure, router } from '../../trpc';

const adminProcedure = roleProcedure('ADMIN');
const STALE_MS = 30 * 60_000;

const ZInsights = z.object({
  insights: z.string(),
  alerts: z.array(z.string()),
  generatedAt: z.string().nullable(),
  generator: z.string().nullable(),
});

async function queue(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (err) {
    if (err instanceof JobTransportUnavailableError) throw appError('SERVICE_UNAVAILABLE', err.message);
    throw err;
  }
}

export const insightsRouter = router({
  /** The latest insights; asks the worker for fresh ones when they are missing or stale. */
  insights: adminProcedure.output(ZInsights).query(async ({ ctx }) => {
    const [latest] = await ctx.db
      .select()
      .from(aiInsights)
      .orderBy(desc(aiInsights.generatedAt), desc(aiInsights.id))
      .limit(1);
    if (!latest || ctx.now().getTime() - latest.generatedAt.getTime() > STALE_MS) {
      const slot = Math.floor(ctx.now().getTime() / STALE_MS);
      await ctx.deps.jobs
        .enqueue('insights.generate', { requestedBy: ctx.user.id }, { jobId: `insights.generate@${slot}` })
        .catch(() => undefined);
    }
    return {
      insights: latest?.insights ?? '',
      alerts: latest?.alerts ?? [],
      generatedAt: latest?.generatedAt.toISOString() ?? null,
      generator: latest?.generator ?? null,
    };
  }),

  /** Refresh: recompute now (the page polls for the new generation time). */
  refresh: adminProcedure.output(z.object({ queued: z.literal(true) })).mutation(async ({ ctx }) => {
    await queue(() =>
      ctx.deps.jobs.enqueue(
        'insights.generate',
        { requestedBy: ctx.user.id },
        { jobId: `insights.generate@manual-${ctx.now().getTime()}` },
      ),
    );
    return { queued: true as const };
  }),

  /** A manual morning-briefing run (the daily one runs at 06:00 Nairobi time). */
  runBriefing: adminProcedure.output(z.object({ queued: z.literal(true) })).mutation(async ({ ctx }) => {
    await queue(() =>
      ctx.deps.jobs.enqueue(
        'article.morning',
        {},
        { jobId: `article.morning@manual-${ctx.now().getTime()}` },
      ),
    );
    return { queued: true as const };
  }),
});
