import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { rows } from '../../drizzle/db';
import { embeddedJobs } from '../../drizzle/schema';
import type { EmbeddedJobState } from '../../shared/enums';

/** A stored job with its payload read back from its JSON text. */
export type EmbeddedJobRow = Omit<typeof embeddedJobs.$inferSelect, 'payload'> & { payload: unknown };

/**
 * Writes a job before it is acknowledged. A job with the same id that is queued or completed stays as it is
 * (de-duplication: the answer is false); one that failed is queued again from its first attempt.
 */
export async function insertJob(
  db: DbOrTx,
  job: { id: string; name: string; payload: unknown; runAt: Date },
): Promise<boolean> {
  const payload = JSON.stringify(job.payload);
  const inserted = await db
    .insert(embeddedJobs)
    .values({ ...job, payload, state: 'queued', attempt: 1, waits: 0 })
    .onConflictDoUpdate({
      target: embeddedJobs.id,
      set: {
        name: job.name,
        payload,
        state: 'queued',
        attempt: 1,
        waits: 0,
        runAt: job.runAt,
        lastError: null,
        finishedAt: null,
      },
      setWhere: eq(embeddedJobs.state, 'failed'),
    })
    .returning({ id: embeddedJobs.id });
  return inserted.length > 0;
}

/** The jobs a restart finds: waiting, delayed, retrying, or running when the process died. */
export async function queuedJobs(db: DbOrTx): Promise<EmbeddedJobRow[]> {
  const queued = await db
    .select()
    .from(embeddedJobs)
    .where(eq(embeddedJobs.state, 'queued'))
    .orderBy(embeddedJobs.runAt);
  return queued.map((row) => ({ ...row, payload: JSON.parse(row.payload) as unknown }));
}

/** The next run of a job that is still queued (a retry, or a wait for the database). */
export function rescheduleJob(
  db: DbOrTx,
  id: string,
  next: { attempt: number; waits: number; runAt: Date; error: string },
) {
  return db
    .update(embeddedJobs)
    .set({ attempt: next.attempt, waits: next.waits, runAt: next.runAt, lastError: next.error.slice(0, 500) })
    .where(and(eq(embeddedJobs.id, id), eq(embeddedJobs.state, 'queued')));
}

/** A job's handler finished (`completed`) or its attempts are spent (`failed`). */
export function finishJob(
  db: DbOrTx,
  id: string,
  state: Exclude<EmbeddedJobState, 'queued'>,
  error?: string,
) {
  return db
    .update(embeddedJobs)
    .set({ state, finishedAt: sql`now()`, lastError: error?.slice(0, 500) ?? null })
    .where(eq(embeddedJobs.id, id));
}

/** A completed job nothing needs to remember (bulky, id-less batches: `keepCompleted: 0`). */
export function deleteJob(db: DbOrTx, id: string) {
  return db.delete(embeddedJobs).where(eq(embeddedJobs.id, id));
}

/** Completed jobs are kept a day (a relay replaying an outbox row finds them), failed ones a week. */
export function pruneJobs(db: DbOrTx) {
  return db.delete(embeddedJobs).where(
    sql`(${embeddedJobs.state} = 'completed' and ${embeddedJobs.finishedAt} < now() - interval '1 day')
        or (${embeddedJobs.state} = 'failed' and ${embeddedJobs.finishedAt} < now() - interval '7 days')`,
  );
}

export interface EmbeddedJobCount {
  name: string;
  state: EmbeddedJobState;
  /** Queued jobs whose time has come (waiting for a slot or running), rather than delayed or retrying. */
  due: number;
  count: number;
}

/** Jobs per name and state, for /metrics. */
export function jobCounts(db: DbOrTx) {
  return rows<EmbeddedJobCount>(
    db,
    sql`select name, state, count(*)::int as count,
          (count(*) filter (where state = 'queued' and run_at <= now()))::int as due
        from embedded_jobs group by name, state`,
  );
}
