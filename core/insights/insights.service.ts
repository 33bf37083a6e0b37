import type { DbOrTx } from '../../drizzle/db';
import { type JobQueue, JobTransportUnavailableError } from '../../shared/jobs';
import type { TInsights, TQueued } from '../../shared/schemas/insights';
import type { CtxUser } from '../access/actor';
import { recordChange } from '../activity/activity';
import { appError } from '../errors';
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
    llmFailure: latest?.llmFailure ?? null,
    dailySummary: summary ? { date: summary.forDate, text: summary.text } : null,
  };
}

/** Refresh: recompute now (the page polls for the new generation time). */
export async function refreshInsights(db: DbOrTx, jobs: Pick<JobQueue, 'enqueue'>, user: CtxUser, now: Date) {
  const jobId = `insights.generate@manual-${now.getTime()}`;
  const queued = await queue(() => jobs.enqueue('insights.generate', { requestedBy: user.id }, { jobId }));
  // The job is in the queue, not the database: the entry says it was asked for.
  await db.transaction((tx) =>
    recordChange(tx, { entity: 'insights', entityId: null, changes: { job: { from: null, to: jobId } } }),
  );
  return queued;
}

/** A manual morning run, the public article and the staff summary (the daily one runs at 06:00 Nairobi time). */
export async function runBriefing(db: DbOrTx, jobs: Pick<JobQueue, 'enqueue'>, now: Date) {
  const jobId = `article.morning@manual-${now.getTime()}`;
  const queued = await queue(() => jobs.enqueue('article.morning', {}, { jobId }));
  await db.transaction((tx) =>
    recordChange(tx, { entity: 'article', entityId: null, changes: { job: { from: null, to: jobId } } }),
  );
  return queued;
}
