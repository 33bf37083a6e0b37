import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { CronExpressionParser } from 'cron-parser';
import { sql } from 'drizzle-orm';
import * as tar from 'tar';
import { type Database, type DbOrTx, rows } from '../../drizzle/db';
import { raiseAlert } from '../../drizzle/outbox';
import { BUSINESS_TIME_ZONE } from '../../shared/constants';
import type { Logger } from '../../shared/logger';
import { type Settings, sessionDatabaseUrl } from '../../shared/settings';
import { uploadsDir } from '../uploads/storage';
import * as q from './backup.queries';

const run = promisify(execFile);

/** What a backup file holds besides the database: read first by a restore. */
export interface BackupManifest {
  format: 1;
  createdAt: string;
  /** `pglite`: `database.pglite.tar.gz` (PGlite's dumpDataDir); `postgres`: `database.pgdump` (pg_dump -Fc). */
  database: 'pglite' | 'postgres';
  serverVersion: string;
  appVersion: string;
  /** Upload files in `uploads/` (uploads kept as files); uploads kept in the database are in its dump. */
  uploadFiles: number;
}

export type BackupDeps = {
  database: Database;
  settings: Pick<Settings, 'backup' | 'dataDir' | 'databaseUrl' | 'databaseDirectUrl' | 'version'>;
  log?: Logger;
};

const FILE_PATTERN = /^mchanga-\d{8}T\d{6}Z\.tar\.gz$/;
const PGLITE_FILE = 'database.pglite.tar.gz';
const PGDUMP_FILE = 'database.pgdump';

function stamp(at: Date) {
  return at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
}

/** The major version of a `pg_dump --version` / `server_version` string ("15.20 (Debian …)" → 15). */
export function majorOf(version: string): number {
  const m = /(\d+)(?:\.\d+)?/.exec(version);
  return m ? Number(m[1]) : Number.NaN;
}

/** pg_dump refuses a server newer than itself: say which client to install instead of its raw error. */
async function checkPgDump(db: DbOrTx, tool: 'pg_dump' | 'pg_restore') {
  const client = await run(tool, ['--version']).catch(() => {
    throw new Error(`${tool} is not installed: install the PostgreSQL client tools (postgresql-client).`);
  });
  const [row] = await rows<{ v: string }>(db, sql`show server_version`);
  const server = row?.v ?? '';
  if (majorOf(client.stdout.replace(/^\D+/, '')) < majorOf(server))
    throw new Error(
      `${client.stdout.trim()} cannot handle PostgreSQL ${server}: install postgresql-client-${majorOf(server)} or newer.`,
    );
  return server;
}

/**
 * One backup: the database (pg_dump's custom format in services mode; PGlite's data directory in the
 * embedded mode) and the upload files, with a manifest, in `BACKUP_DIR/mchanga-<UTC time>.tar.gz`, written
 * under a temporary name and renamed when complete; then only the newest BACKUP_KEEP files are kept. The
 * run is recorded in backup_runs (the ADMIN screen, health and /metrics read it); a failure is recorded
 * and raises a `backup.failed` alert to ADMIN and OPS.
 */
export async function createBackup(deps: BackupDeps, now = new Date()) {
  const { database, settings } = deps;
  const dir = settings.backup.dir;
  const startedAt = new Date();
  const name = `mchanga-${stamp(now)}.tar.gz`;
  let staging: string | undefined;
  try {
    await mkdir(dir, { recursive: true });
    staging = await mkdtemp(join(dir, '.staging-'));
    const manifest: BackupManifest = {
      format: 1,
      createdAt: now.toISOString(),
      database: database.driver,
      serverVersion: '',
      appVersion: settings.version,
      uploadFiles: 0,
    };
    if (database.driver === 'pglite') {
      if (!database.dumpDataDir) throw new Error('This PGlite database cannot be dumped.');
      await writeFile(join(staging, PGLITE_FILE), await database.dumpDataDir());
      const [row] = await rows<{ v: string }>(database.db, sql`show server_version`);
      manifest.serverVersion = row?.v ?? '';
    } else {
      // PostgreSQL itself, never a pooler: pg_dump's session settings must not reach the app's connections.
      const dumpUrl = sessionDatabaseUrl(settings);
      if (!dumpUrl) throw new Error('DATABASE_URL is not set.');
      manifest.serverVersion = await checkPgDump(database.db, 'pg_dump');
      await run(
        'pg_dump',
        ['--format=custom', '--no-owner', `--file=${join(staging, PGDUMP_FILE)}`, dumpUrl],
        {
          maxBuffer: 16 * 1024 * 1024,
        },
      );
    }
    const uploads = uploadsDir(settings);
    const uploadFiles = existsSync(uploads) ? (await readdir(uploads)).filter((f) => !f.startsWith('.')) : [];
    if (uploadFiles.length > 0) {
      await mkdir(join(staging, 'uploads'));
      for (const f of uploadFiles) await cp(join(uploads, f), join(staging, 'uploads', f));
    }
    manifest.uploadFiles = uploadFiles.length;
    await writeFile(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

    const partial = join(dir, `.${name}.partial`);
    await tar.create({ gzip: true, file: partial, cwd: staging, portable: true }, await readdir(staging));
    await rename(partial, join(dir, name));
    const sizeBytes = (await stat(join(dir, name))).size;
    await q.recordRun(database.db, { startedAt, status: 'ok', file: name, sizeBytes });
    const removed = await pruneBackups(dir, settings.backup.keep);
    deps.log?.info({ file: name, sizeBytes, removed }, 'backup written');
    return { file: join(dir, name), name, sizeBytes, manifest };
  } catch (err) {
    const message = (err as Error).message ?? String(err);
    deps.log?.error({ err }, 'backup failed');
    await database.db
      .transaction(async (tx) => {
        const runId = await q.recordRun(tx, { startedAt, status: 'failed', error: message });
        await raiseAlert(tx, { kind: 'backup.failed', runId });
      })
      .catch((e) => deps.log?.error({ err: e }, 'backup failure not recorded'));
    throw err;
  } finally {
    if (staging) await rm(staging, { recursive: true, force: true });
  }
}

/** Keeps the newest `keep` backup files (by their time-stamped names); returns the names removed. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => FILE_PATTERN.test(f)).sort();
  const old = files.slice(0, Math.max(0, files.length - keep));
  for (const f of old) await rm(join(dir, f), { force: true });
  return old;
}

/**
 * The scheduled backup (the `backup.scheduled` job, every 15 minutes): runs when BACKUP_CRON's latest slot
 * has passed and no run started since it, so a slot missed while the server was off is made up at the next
 * start. `off` never runs.
 */
export async function backupIfDue(deps: BackupDeps, now: Date) {
  const cron = deps.settings.backup.cron;
  if (!cron) return { ran: false as const, reason: 'off' };
  const slot = CronExpressionParser.parse(cron, { tz: BUSINESS_TIME_ZONE, currentDate: now }).prev().toDate();
  if (await q.startedSince(deps.database.db, slot)) return { ran: false as const, reason: 'done' };
  const result = await createBackup(deps, now);
  return { ran: true as const, file: result.name };
}

/** Reads a backup file's manifest (and checks that it is one). */
async function unpack(file: string, into: string): Promise<BackupManifest> {
  await tar.extract({ file, cwd: into, strict: true });
  const manifest = JSON.parse(await readFile(join(into, 'manifest.json'), 'utf8')) as BackupManifest;
  if (manifest.format !== 1) throw new Error(`${file} is not a Mchanga backup (format ${manifest.format}).`);
  return manifest;
}

/** Moves a directory aside (`<dir>.before-restore-<time>`) when it holds anything; returns where. */
async function setAside(dir: string, at: Date): Promise<string | undefined> {
  if (!existsSync(dir) || (await readdir(dir)).length === 0) return undefined;
  const aside = `${dir}.before-restore-${stamp(at)}`;
  await rename(dir, aside);
  return aside;
}

export interface RestoreTarget {
  /** Services mode: the database to restore into (its tables are replaced). */
  databaseUrl?: string | undefined;
  /** Embedded mode: the data directory (its `pglite` and `uploads` are set aside first). */
  dataDir: string;
}

/**
 * Restores a backup file. Embedded (no DATABASE_URL): the current `DATA_DIR/pglite` and `DATA_DIR/uploads`
 * are moved aside (`…before-restore-<time>`) and the backup's are put in their place — the server must be
 * stopped. Services: `pg_restore --clean --if-exists --single-transaction` into DATABASE_URL (stop the
 * servers and workers first), and any upload files into DATA_DIR/uploads.
 */
export async function restoreBackup(file: string, target: RestoreTarget, now = new Date()) {
  await mkdir(target.dataDir, { recursive: true });
  const work = await mkdtemp(join(target.dataDir, '.restore-'));
  const setAsideDirs: string[] = [];
  try {
    const manifest = await unpack(file, work);
    if (manifest.database === 'pglite') {
      if (target.databaseUrl)
        throw new Error(
          'This backup is of the embedded database (PGlite); unset DATABASE_URL to restore it into DATA_DIR.',
        );
      const dataDir = join(target.dataDir, 'pglite');
      const aside = await setAside(dataDir, now);
      if (aside) setAsideDirs.push(aside);
      const dump = await readFile(join(work, PGLITE_FILE));
      const pglite = await PGlite.create({ dataDir, loadDataDir: new Blob([dump]) });
      await pglite.close();
    } else {
      if (!target.databaseUrl)
        throw new Error(
          'This backup is of a PostgreSQL database; set DATABASE_URL to the database to restore into.',
        );
      await run(
        'pg_restore',
        [
          '--clean',
          '--if-exists',
          '--no-owner',
          '--single-transaction',
          '--exit-on-error',
          `--dbname=${target.databaseUrl}`,
          join(work, PGDUMP_FILE),
        ],
        { maxBuffer: 16 * 1024 * 1024 },
      );
    }
    if (existsSync(join(work, 'uploads'))) {
      const uploads = uploadsDir(target);
      const aside = await setAside(uploads, now);
      if (aside) setAsideDirs.push(aside);
      await cp(join(work, 'uploads'), uploads, { recursive: true });
    }
    return { manifest, setAside: setAsideDirs };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** SHA-256 of a file, for the restore drill and the CLI's report. */
export async function fileSha256(path: string) {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}
