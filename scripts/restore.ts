/**
 * `npm run restore -- <file>`: puts a backup back. Embedded mode: DATA_DIR/pglite and DATA_DIR/uploads are
 * moved aside (`…before-restore-<time>`) and the backup's take their place. Services mode: pg_restore into
 * DATABASE_URL, or DATABASE_DIRECT_URL when that is set (its tables are replaced). Stop the server (and
 * workers) first; start them after.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { restoreBackup } from '../core/backup/backup.service';
import { runningServerPid } from '../core/backup/server-lock';
import { loadSettingsOrExit, sessionDatabaseUrl } from '../shared/settings';

const file = process.argv[2];
if (!file || !existsSync(file)) {
  console.error('Usage: npm run restore -- <backup file> (a mchanga-<time>.tar.gz from BACKUP_DIR)');
  process.exit(1);
}
const settings = loadSettingsOrExit(' the restore');
const pid = runningServerPid(settings.dataDir);
if (pid) {
  console.error(`The server (pid ${pid}) is running on ${settings.dataDir}: stop it before restoring.`);
  process.exit(1);
}
try {
  const { manifest, setAside } = await restoreBackup(resolve(file), {
    databaseUrl: sessionDatabaseUrl(settings),
    dataDir: settings.dataDir,
  });
  console.log(
    `Restored the backup of ${manifest.createdAt} (${manifest.database === 'pglite' ? 'embedded database' : 'PostgreSQL'}, ${manifest.uploadFiles} upload files).`,
  );
  for (const dir of setAside) console.log(`  what was there before is kept in ${dir}`);
  console.log('Start the server again (npm start).');
} catch (err) {
  console.error(`Restore failed: ${(err as Error).message}`);
  process.exitCode = 1;
}
