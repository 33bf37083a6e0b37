import { sql } from 'drizzle-orm';
import { type DbOrTx, rows } from '../../drizzle/db';
import type { JobContext } from '../jobs/context';
import { forgetPartitions } from './ingest.queries';

const DAY_MS = 24 * 3600_000;
/** Months of partitions made ahead of the current one. */
export const MONTHS_AHEAD = 2;

/** The truck_positions partitions, each with the UTC month it holds: [from, to). */
export async function positionPartitions(db: DbOrTx) {
  const list = await rows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'truck_positions'::regclass order by c.relname`,
  );
  return list.flatMap(({ name }) => {
    const m = /^truck_positions_p(\d{4})_(\d{2})$/.exec(name);
    if (!m) return [];
    const from = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1));
    const to = new Date(Date.UTC(Number(m[1]), Number(m[2]), 1));
    return [{ name, from, to }];
  });
}

/**
 * The positions job (daily): makes the partitions of this month and the next MONTHS_AHEAD, and drops
 * whole partitions whose every fix is older than POSITION_RETENTION_DAYS. Nothing is rolled up here: the
 * per-day rollup, the odometer and the fuel logs' km are kept exact as fixes are written, so dropping
 * raw fixes changes no figure the product shows. Safe to re-run.
 */
export async function maintainPositions(
  ctx: Pick<JobContext, 'db' | 'now' | 'settings'> & Partial<Pick<JobContext, 'log'>>,
) {
  const now = ctx.now();
  const created: string[] = [];
  for (let i = 0; i <= MONTHS_AHEAD; i++) {
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 1));
    const [row] = await rows<{ name: string }>(
      ctx.db,
      sql`select truck_positions_partition(${month.toISOString()}::timestamptz) as name`,
    );
    created.push(row!.name);
  }
  const cutoff = new Date(now.getTime() - ctx.settings.positionRetentionDays * DAY_MS);
  const dropped: string[] = [];
  for (const part of await positionPartitions(ctx.db)) {
    if (part.to.getTime() > cutoff.getTime()) continue;
    await rows(ctx.db, sql.raw(`drop table if exists "${part.name}"`));
    dropped.push(part.name);
  }
  if (dropped.length > 0) {
    forgetPartitions();
    ctx.log?.info({ dropped, cutoff: cutoff.toISOString() }, 'position partitions past retention dropped');
  }
  return { ensured: created, dropped, cutoff: cutoff.toISOString() };
}
