import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../drizzle/db';
import { seedBusiness, tableChecksums } from '../../test/backup-drill';
import { withDatabase } from '../../test/global-db';
import { freePort } from '../../test/redis-server';
import { uploadStore } from '../uploads/storage';
import { createBackup, restoreBackup } from './backup.service';

const url = process.env.DATABASE_URL;
const root = mkdtempSync(join(tmpdir(), 'mchanga-backup-pg-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function admin<T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url!, { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end();
  }
}

describe.skipIf(!url)('backups in services mode: pg_dump and pg_restore (issue 25)', () => {
  it('restore drill: seed, back up, wipe, restore into a fresh database: every table and upload the same', async () => {
    const suffix = randomBytes(4).toString('hex');
    const [source, target] = [`bk_src_${suffix}`, `bk_dst_${suffix}`];
    await admin((sql) => sql.unsafe(`create database ${source}`));
    const settings = {
      dataDir: join(root, 'data'),
      databaseUrl: withDatabase(url!, source),
      databaseDirectUrl: undefined,
      version: '0.0.0-test',
      // Services mode keeps uploads in the database: pg_dump carries them.
      uploadStorage: 'database' as const,
      backup: { dir: join(root, 'backups'), keep: 7, cron: null },
    };
    let database = await createDb({ databaseUrl: settings.databaseUrl, poolSize: 2 });
    let photos: Record<string, Buffer>;
    let before: Awaited<ReturnType<typeof tableChecksums>>;
    let file: string;
    try {
      photos = await seedBusiness(database.db, settings);
      before = await tableChecksums(database.db);
      expect(before['public.uploads']?.rows).toBe(3);
      const backup = await createBackup({ database, settings });
      expect(backup.manifest).toMatchObject({ database: 'postgres', uploadFiles: 0 });
      file = backup.file;
    } finally {
      await database.close();
    }

    // Wipe: the database is gone.
    await admin((sql) => sql.unsafe(`drop database ${source} with (force)`));
    await admin((sql) => sql.unsafe(`create database ${target}`));
    try {
      await restoreBackup(file, { databaseUrl: withDatabase(url!, target), dataDir: join(root, 'restore') });
      database = await createDb({ databaseUrl: withDatabase(url!, target), migrate: false, poolSize: 2 });
      try {
        expect(await tableChecksums(database.db)).toEqual(before);
        const store = uploadStore(database.db, { ...settings, dataDir: join(root, 'restore') });
        for (const [name, bytes] of Object.entries(photos)) {
          const upload = await store.open(name);
          const chunks: Buffer[] = [];
          for await (const c of upload!.stream) chunks.push(c as Buffer);
          expect(Buffer.concat(chunks)).toEqual(bytes);
        }
      } finally {
        await database.close();
      }
    } finally {
      await admin((sql) => sql.unsafe(`drop database if exists ${target} with (force)`));
    }
  }, 120_000);

  // Behind PgBouncer in transaction mode, pg_dump's session settings (search_path '' above all) stayed on
  // a pooled connection the app then used: the fleet map failed with 42P01 while a backup ran (CI, the
  // PgBouncer smoke journey). DATABASE_URL here is a pooler that is not there: the backup works only if
  // pg_dump goes to PostgreSQL itself.
  it('runs pg_dump on DATABASE_DIRECT_URL, never through the pooler in DATABASE_URL', async () => {
    const name = `bk_direct_${randomBytes(4).toString('hex')}`;
    await admin((sql) => sql.unsafe(`create database ${name}`));
    const pooler = new URL(withDatabase(url!, name));
    pooler.port = String(await freePort());
    const settings = {
      dataDir: join(root, 'direct'),
      databaseUrl: pooler.toString(),
      databaseDirectUrl: withDatabase(url!, name),
      version: '0.0.0-test',
      backup: { dir: join(root, 'direct-backups'), keep: 7, cron: null },
    };
    const database = await createDb({ databaseUrl: settings.databaseDirectUrl, poolSize: 2 });
    try {
      const backup = await createBackup({ database, settings });
      expect(backup.manifest).toMatchObject({ database: 'postgres' });
      expect(backup.sizeBytes).toBeGreaterThan(1000);
    } finally {
      await database.close();
      await admin((sql) => sql.unsafe(`drop database if exists ${name} with (force)`));
    }
  }, 60_000);
});
