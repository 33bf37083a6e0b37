import { desc, eq, gte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { backupRuns } from '../../drizzle/schema';

export type BackupRunRow = typeof backupRuns.$inferSelect;

/** The newest successful backup and the newest run of any outcome (a failure after it shows). */
export async function lastBackups(db: DbOrTx) {
  const [ok] = await db
    .select()
    .from(backupRuns)
    .where(eq(backupRuns.status, 'ok'))
    .orderBy(desc(backupRuns.finishedAt))
    .limit(1);
  const [latest] = await db.select().from(backupRuns).orderBy(desc(backupRuns.startedAt)).limit(1);
  return { lastOk: ok, latest };
}

/** A finished run: written once it is over, so a backup never holds its own row as `running`. */
export async function recordRun(
  db: DbOrTx,
  run: { startedAt: Date; status: 'ok' | 'failed'; file?: string; sizeBytes?: number; error?: string },
): Promise<number> {
  const [row] = await db
    .insert(backupRuns)
    .values({
      startedAt: run.startedAt,
      finishedAt: sql`now()`,
      status: run.status,
      file: run.file ?? null,
      sizeBytes: run.sizeBytes ?? null,
      error: run.error?.slice(0, 1000) ?? null,
    })
    .returning({ id: backupRuns.id });
  return row!.id;
}

/** The newest runs, newest first (the ADMIN screen). */
export function recentRuns(db: DbOrTx, limit: number) {
  return db.select().from(backupRuns).orderBy(desc(backupRuns.startedAt)).limit(limit);
}

/** Runs started at or after a time (the scheduled slot already taken). */
export async function startedSince(db: DbOrTx, since: Date) {
  const [row] = await db
    .select({ id: backupRuns.id })
    .from(backupRuns)
    .where(gte(backupRuns.startedAt, since))
    .limit(1);
  return row;
}

/** A failed run's error, for its alert. */
export async function backupRunError(db: DbOrTx, id: number) {
  const [row] = await db.select({ error: backupRuns.error }).from(backupRuns).where(eq(backupRuns.id, id));
  return row?.error ?? undefined;
}
