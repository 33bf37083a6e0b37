import type { DbOrTx } from '../../drizzle/db';
import type { TBackupStatus } from '../../shared/schemas/backups';
import type { Settings } from '../../shared/settings';
import { lastBackups, recentRuns } from './backup.queries';

/** The last successful backup, the schedule and the newest ten runs, for the ADMIN screen. */
export async function backupStatus(db: DbOrTx, settings: Pick<Settings, 'backup'>): Promise<TBackupStatus> {
  const [{ lastOk }, runs] = await Promise.all([lastBackups(db), recentRuns(db, 10)]);
  return {
    lastAt: lastOk?.finishedAt?.toISOString() ?? null,
    sizeBytes: lastOk?.sizeBytes ?? null,
    schedule: settings.backup.cron,
    keep: settings.backup.keep,
    runs: runs.map((r) => ({
      startedAt: r.startedAt.toISOString(),
      finishedAt: r.finishedAt?.toISOString() ?? null,
      status: r.status,
      file: r.file,
      sizeBytes: r.sizeBytes,
      error: r.error,
    })),
  };
}
