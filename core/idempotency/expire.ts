import type { JobContext } from '../jobs/context';
import { deleteKeysCreatedBefore } from './expire.queries';

const DAY_MS = 24 * 3600_000;
/** Rows per delete statement: short statements, so a replay waiting on a key's lock is never held long. */
export const EXPIRE_BATCH = 5000;

/**
 * Deletes stored `Idempotency-Key` answers older than the retention (IDEMPOTENCY_RETENTION_DAYS), in
 * batches, so the table holds weeks of field writes rather than every one ever made. A key younger than the
 * retention is untouched and still answers its replay with the first result. Safe to re-run.
 */
export async function expireIdempotencyKeys(
  ctx: Pick<JobContext, 'db' | 'now' | 'settings'> & Partial<Pick<JobContext, 'log'>>,
  batch = EXPIRE_BATCH,
) {
  const before = new Date(ctx.now().getTime() - ctx.settings.idempotencyRetentionDays * DAY_MS);
  let deleted = 0;
  while (true) {
    const n = await deleteKeysCreatedBefore(ctx.db, before, batch);
    deleted += n;
    if (n < batch) break;
  }
  if (deleted > 0) ctx.log?.info({ deleted, before: before.toISOString() }, 'expired idempotency keys');
  return { deleted, before: before.toISOString() };
}
