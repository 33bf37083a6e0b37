import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../drizzle/db';
import { backupRuns, outbox } from '../../drizzle/schema';
import { seedBusiness, tableChecksums } from '../../test/backup-drill';
import { uploadsDir } from '../uploads/storage';
import { lastBackups } from './backup.queries';
import { backupIfDue, createBackup, majorOf, pruneBackups, restoreBackup } from './backup.service';

const root = mkdtempSync(join(tmpdir(), 'mchanga-backup-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const settingsFor = (dataDir: string, over: { dir?: string; keep?: number; cron?: string | null } = {}) => ({
  dataDir,
  databaseUrl: undefined,
  databaseDirectUrl: undefined,
  version: '0.0.0-test',
  uploadStorage: 'files' as const,
  backup: { dir: over.dir ?? join(dataDir, 'backups'), keep: over.keep ?? 7, cron: over.cron ?? null },
});

describe('backups in the embedded mode (issue 25)', () => {
  it('restore drill: seed, back up, wipe, restore into a fresh data directory: every table and upload the same', async () => {
    const first = join(root, 'first');
    const settings = settingsFor(first);
    // As `npm start` opens it: PGlite in its own thread on DATA_DIR/pglite.
    let database = await createDb({ dataDir: join(first, 'pglite'), thread: true });
    const photos = await seedBusiness(database.db, settings);
    const before = await tableChecksums(database.db);
    expect(before['public.fuel_logs']?.rows).toBe(3);
    expect(before['drizzle.__drizzle_migrations']?.rows).toBeGreaterThan(15);

    const backup = await createBackup({ database, settings });
    expect(backup.manifest).toMatchObject({ database: 'pglite', uploadFiles: 3 });
    const { lastOk } = await lastBackups(database.db);
    expect(lastOk).toMatchObject({ status: 'ok', file: backup.name, sizeBytes: backup.sizeBytes });
    await database.close();

    // Wipe: the disk is gone; only the backup file survives (copied elsewhere).
    const kept = join(root, backup.name);
    writeFileSync(kept, readFileSync(backup.file));
    rmSync(first, { recursive: true, force: true });

    const fresh = join(root, 'fresh');
    const restored = await restoreBackup(kept, { dataDir: fresh });
    expect(restored.setAside).toEqual([]);
    database = await createDb({ dataDir: join(fresh, 'pglite'), thread: true });
    try {
      expect(await tableChecksums(database.db)).toEqual(before);
    } finally {
      await database.close();
    }
    const uploads = uploadsDir({ dataDir: fresh });
    expect(readdirSync(uploads).sort()).toEqual(Object.keys(photos).sort());
    for (const [name, bytes] of Object.entries(photos))
      expect(readFileSync(join(uploads, name))).toEqual(bytes);
  }, 120_000);

  it('restoring over a data directory sets what was there aside', async () => {
    const dir = join(root, 'aside');
    const settings = settingsFor(dir);
    const database = await createDb({ dataDir: join(dir, 'pglite') });
    await seedBusiness(database.db, settings);
    const backup = await createBackup({ database, settings });
    await database.close();
    const { setAside } = await restoreBackup(backup.file, { dataDir: dir }, new Date('2026-11-26T01:00:00Z'));
    expect(setAside.sort()).toEqual([
      `${join(dir, 'pglite')}.before-restore-20261126T010000Z`,
      `${join(dir, 'uploads')}.before-restore-20261126T010000Z`,
    ]);
    await expect(
      restoreBackup(backup.file, { dataDir: dir, databaseUrl: 'postgres://x@127.0.0.1/x' }),
    ).rejects.toThrow(
      'This backup is of the embedded database (PGlite); unset DATABASE_URL to restore it into DATA_DIR.',
    );
  }, 120_000);

  it('keeps the newest BACKUP_KEEP files; runs on schedule once per slot; a failure is recorded and alerts', async () => {
    const dir = join(root, 'keep');
    const database = await createDb({ dataDir: join(dir, 'pglite') });
    try {
      const settings = settingsFor(dir, { keep: 2, cron: '30 2 * * *' });
      // 02:45 Nairobi on the 24th: the 02:30 slot has passed with no run.
      const slotPassed = new Date('2026-11-23T23:45:00Z');
      expect(await backupIfDue({ database, settings }, slotPassed)).toMatchObject({ ran: true });
      expect(await backupIfDue({ database, settings }, new Date('2026-11-24T10:00:00Z'))).toEqual({
        ran: false,
        reason: 'done',
      });
      expect(await backupIfDue({ database, settings: settingsFor(dir, { cron: null }) }, new Date())).toEqual(
        {
          ran: false,
          reason: 'off',
        },
      );
      await createBackup({ database, settings }, new Date('2026-11-25T00:00:00Z'));
      await createBackup({ database, settings }, new Date('2026-11-26T00:00:00Z'));
      expect(readdirSync(settings.backup.dir).filter((f) => f.endsWith('.tar.gz'))).toEqual([
        'mchanga-20261125T000000Z.tar.gz',
        'mchanga-20261126T000000Z.tar.gz',
      ]);
      expect(await pruneBackups(settings.backup.dir, 1)).toEqual(['mchanga-20261125T000000Z.tar.gz']);

      // BACKUP_DIR is a file: nothing can be written there.
      const blocked = join(dir, 'not-a-dir');
      writeFileSync(blocked, 'x');
      await expect(
        createBackup({ database, settings: settingsFor(dir, { dir: blocked }) }),
      ).rejects.toThrow();
      const { latest, lastOk } = await lastBackups(database.db);
      expect(latest).toMatchObject({ status: 'failed' });
      expect(latest?.error).toMatch(/not-a-dir/);
      expect(lastOk?.file).toBe('mchanga-20261126T000000Z.tar.gz');
      const alerts = await database.db.select().from(outbox).where(eq(outbox.job, 'alert.fanout'));
      expect(alerts.map((a) => a.payload)).toEqual([{ kind: 'backup.failed', runId: latest!.id }]);
      expect(await database.db.select().from(backupRuns)).toHaveLength(4);
    } finally {
      await database.close();
    }
  }, 120_000);

  it('reads major versions as pg_dump and PostgreSQL print them', () => {
    for (const [text, major] of [
      ['15.20 (Debian 15.20-0+deb12u1)', 15],
      ['16.4', 16],
      ['18devel', 18],
      ['', Number.NaN],
    ] as const)
      expect(majorOf(text), text).toBe(major);
  });
});
