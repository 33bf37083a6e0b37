import type { DbOrTx } from '../../../drizzle/db';
import { type JobQueue, JobTransportUnavailableError } from '../../../shared/jobs';
import type { TInsights, TQueued } from '../../../shared/schemas/insights';
import type { CtxUser } from '../../context';
import { appError } from '../../errors';
import * as q from './insights.queries';

const STALE_MS = 30 * 60_000;

/** Queues a job a person asked for; an unreachable queue is a 503 they can retry. */
async function queue(run: () => Promise<unknown>): Promise<TQueued> {
  try {
    await run();
  } catch (err) {
    if (err instanceof JobTransportUnavailableError) throw appError('SERVICE_UNAVAILABLE', err.message);
    throw err;
  }
  return { queued: true };
}

/**
 * The latest insights and daily summary; asks the worker for fresh ones when they are missing or stale (one job per
 * half hour, however many admins look). The answer never waits on the queue.
 */
export async function latestInsights(
  db: DbOrTx,
  jobs: Pick<JobQueue, 'enqueue'>,
  user: CtxUser,
  now: Date,
): Promise<TInsights> {
  const [latest, summary] = await Promise.all([q.latestInsight(db), q.latestDailySummary(db)]);
  if (!latest || now.getTime() - latest.generatedAt.getTime() > STALE_MS) {
    const slot = Math.floor(now.getTime() / STALE_MS);
    await jobs
      .enqueue('insights.generate', { requestedBy: user.id }, { jobId: `insights.generate@${slot}` })
      .catch(() => undefined);
  }
  return {
    insights: latest?.insights ?? '',
    alerts: latest?.alerts ?? [],
    generatedAt: latest?.generatedAt.toISOString() ?? null,
    generator: latest?.generator ?? null,
    dailySummary: summary ? { date: summary.forDate, text: summary.text } : null,
  };
}

/** Refresh: recompute now (the page polls for the new generation time). */
export function refreshInsights(jobs: Pick<JobQueue, 'enqueue'>, user: CtxUser, now: Date) {
  return queue(() =>
    jobs.enqueue(
      'insights.generate',
      { requestedBy: user.id },
      { jobId: `insights.generate@manual-${now.getTime()}` },
    ),
  );
}

/** A manual morning run, the public article and the staff summary (the daily one runs at 06:00 Nairobi time). */
export function runBriefing(jobs: Pick<JobQueue, 'enqueue'>, now: Date) {
  return queue(() =>
    jobs.enqueue('article.morning', {}, { jobId: `article.morning@manual-${now.getTime()}` }),
  );
}
