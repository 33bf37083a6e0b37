import type { DbOrTx } from '../../drizzle/db';
import { retentionCutoff } from '../../shared/domain/activity';
import { addDays, startOfLocalDate } from '../../shared/domain/time';
import type { TActivityEntry, TActivityQuery } from '../../shared/schemas/activity';
import type { Settings } from '../../shared/settings';
import type { JobContext } from '../jobs/context';
import { activityFacets, activityRows, purgeActivityBefore } from './activity.queries';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A day is a whole Africa/Nairobi day (`to` includes it); an instant is itself. */
function boundary(value: string, dayOffset: 0 | 1): Date {
  return DAY.test(value) ? startOfLocalDate(addDays(value, dayOffset)) : new Date(value);
}

/** The action log, newest first, filtered by user, entity and [from, to). */
export async function listActivity(db: DbOrTx, q: TActivityQuery): Promise<TActivityEntry[]> {
  const found = await activityRows(db, {
    userId: q.userId,
    entity: q.entity,
    from: q.from ? boundary(q.from, 0) : undefined,
    to: q.to ? boundary(q.to, 1) : undefined,
    limit: q.limit,
  });
  return found.map((r) => ({
    at: r.at.toISOString(),
    userId: r.userId,
    userName: r.userName,
    role: r.role,
    action: r.action,
    entity: r.entity,
    entityId: r.entityId,
    changes: (r.changes ?? {}) as TActivityEntry['changes'],
    ip: r.ip,
    userAgent: r.userAgent,
  }));
}

export async function activityFilters(db: DbOrTx, settings: Pick<Settings, 'activityRetentionDays'>) {
  const { entities, people } = await activityFacets(db);
  return {
    retentionDays: settings.activityRetentionDays,
    entities,
    users: people.map((p) => ({ id: p.user_id, name: p.user_name ?? `#${p.user_id}`, role: p.role })),
  };
}

/** Rows per delete: short statements. */
export const ACTIVITY_PURGE_BATCH = 5000;

/**
 * The retention job: entries older than ACTIVITY_RETENTION_DAYS (two years by default) go, in batches.
 * Safe to re-run; the only way anything leaves the log.
 */
export async function expireActivity(
  ctx: Pick<JobContext, 'db' | 'now' | 'settings'> & Partial<Pick<JobContext, 'log'>>,
  batch = ACTIVITY_PURGE_BATCH,
) {
  const before = retentionCutoff(ctx.now(), ctx.settings.activityRetentionDays);
  let deleted = 0;
  while (true) {
    const n = await purgeActivityBefore(ctx.db, before, batch);
    deleted += n;
    if (n < batch) break;
  }
  if (deleted > 0) ctx.log?.info({ deleted, before: before.toISOString() }, 'expired action log entries');
  return { deleted, before: before.toISOString() };
}
