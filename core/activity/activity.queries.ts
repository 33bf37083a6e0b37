import { and, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../drizzle/db';
import { rows } from '../../drizzle/db';
import { activityLog } from '../../drizzle/schema';

export type NewActivity = Omit<typeof activityLog.$inferInsert, 'id' | 'at'>;

export async function insertActivity(db: DbOrTx, entry: NewActivity) {
  await db.insert(activityLog).values(entry);
}

export interface ActivityFilters {
  userId?: number | undefined;
  entity?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  limit: number;
}

/** Newest first; [from, to) as instants. */
export function activityRows(db: DbOrTx, f: ActivityFilters) {
  const where: SQL[] = [];
  if (f.userId !== undefined) where.push(eq(activityLog.userId, f.userId));
  if (f.entity !== undefined) where.push(eq(activityLog.entity, f.entity));
  if (f.from) where.push(gte(activityLog.at, f.from));
  if (f.to) where.push(lt(activityLog.at, f.to));
  return db
    .select()
    .from(activityLog)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(activityLog.at), desc(activityLog.id))
    .limit(f.limit);
}

/** The entities and people the log holds, for the screen's filters. */
export async function activityFacets(db: DbOrTx) {
  const entities = await rows<{ entity: string }>(
    db,
    sql`select distinct entity from activity_log order by entity`,
  );
  const people = await rows<{ user_id: number; user_name: string | null; role: string | null }>(
    db,
    sql`select distinct on (user_id) user_id, user_name, role from activity_log
        where user_id is not null order by user_id, at desc`,
  );
  return { entities: entities.map((r) => r.entity), people };
}

/**
 * Deletes up to `limit` entries older than `before` (oldest first) in one transaction that allows it:
 * the append-only trigger refuses any other delete. Answers how many went.
 */
export async function purgeActivityBefore(db: DbOrTx, before: Date, limit: number): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('mchanga.activity_purge', 'on', true)`);
    const oldest = tx
      .select({ id: activityLog.id })
      .from(activityLog)
      .where(lt(activityLog.at, before))
      .orderBy(activityLog.id)
      .limit(limit);
    const gone = await tx
      .delete(activityLog)
      .where(inArray(activityLog.id, oldest))
      .returning({ id: activityLog.id });
    return gone.length;
  });
}

type TableWithId = PgTable & { id: AnyPgColumn };

/** A record as it is before a write, locked for the rest of the transaction (the entry's before-image). */
export async function lockedRow<T extends TableWithId>(
  db: DbOrTx,
  table: T,
  id: string | number,
): Promise<T['$inferSelect'] | undefined> {
  const found = await db
    .select()
    .from(table as PgTable)
    .where(eq(table.id, id))
    .for('update');
  return found[0] as T['$inferSelect'] | undefined;
}
