/**
 * `npm run backup`: one backup now, into BACKUP_DIR (DATA_DIR/backups), keeping the newest BACKUP_KEEP.
 * Services mode: pg_dump of DATABASE_URL, or of DATABASE_DIRECT_URL when that is set (safe while everything
 * runs). Embedded mode: the server must be stopped (PGlite's directory has one process); while it runs, its
 * scheduled backup (BACKUP_CRON) covers it.
 */
import { join } from 'node:path';
import { createBackup } from '../core/backup/backup.service';
import { runningServerPid } from '../core/backup/server-lock';
import { createDb } from '../drizzle/db';
import { loadSettingsOrExit } from '../shared/settings';

const settings = loadSettingsOrExit(' the backup');
if (!settings.databaseUrl) {
  const pid = runningServerPid(settings.dataDir);
  if (pid) {
    console.error(
      `The server (pid ${pid}) is running on ${settings.dataDir}: stop it first, or let its scheduled backup run (BACKUP_CRON).`,
    );
    process.exit(1);
  }
}
const database = await createDb({
  databaseUrl: settings.databaseUrl,
  directUrl: settings.databaseDirectUrl,
  dataDir: join(settings.dataDir, 'pglite'),
  poolSize: 2,
});
try {
  const result = await createBackup({ database, settings });
  console.log(`Backup written: ${result.file} (${result.sizeBytes} bytes)`);
} catch (err) {
  console.error(`Backup failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
