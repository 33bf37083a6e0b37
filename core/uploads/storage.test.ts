import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../drizzle/db';
import { uploads } from '../../drizzle/schema';
import { createTestDatabase } from '../../test/helpers';
import { migrateFilesToDatabase, READ_CHUNK_BYTES, uploadStore, uploadsDir } from './storage';
import { NAME_PATTERN } from './uploads.service';

let database: Database;
let dataDir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'mchanga-storage-'));
});
afterAll(async () => {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const name = (kind = 'fuel-photo') => `${kind}-${randomBytes(16).toString('hex')}.jpg`;
async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part as Buffer));
  return Buffer.concat(parts);
}

describe.each(['files', 'database'] as const)('the %s upload store', (uploadStorage) => {
  const store = () => uploadStore(database.db, { dataDir, uploadStorage });

  it.each([
    ['empty', 0],
    ['one byte', 1],
    ['exactly one slice', READ_CHUNK_BYTES],
    ['several slices and a bit', 3 * READ_CHUNK_BYTES + 17],
  ])('gives back exactly what it was given (%s)', async (_, size) => {
    const bytes = randomBytes(size);
    const file = name();
    await store().put(file, bytes, 'image/jpeg');
    const opened = await store().open(file);
    expect(opened).toMatchObject({ contentType: 'image/jpeg', size });
    expect((await readAll(opened!.stream)).equals(bytes)).toBe(true);
  });

  it('answers undefined for a file it does not have, and forgets removed ones', async () => {
    expect(await store().open(name())).toBeUndefined();
    const file = name();
    await store().put(file, randomBytes(10), 'image/jpeg');
    await store().remove([file, name()]);
    expect(await store().open(file)).toBeUndefined();
  });
});

describe('the database store', () => {
  const store = () => uploadStore(database.db, { dataDir, uploadStorage: 'database' });

  it('records size and checksum, and fails a read whose bytes no longer match them', async () => {
    const bytes = randomBytes(2 * READ_CHUNK_BYTES + 5);
    const file = name();
    await store().put(file, bytes, 'image/jpeg');
    const [row] = await database.db.select().from(uploads).where(eq(uploads.name, file));
    expect(row).toMatchObject({
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    const tampered = Buffer.from(bytes);
    tampered[tampered.length - 1] = tampered[tampered.length - 1]! ^ 0xff;
    await database.db.update(uploads).set({ data: tampered }).where(eq(uploads.name, file));
    await expect(readAll((await store().open(file))!.stream)).rejects.toThrow(/checksum/);
  });
});

describe('moving DATA_DIR/uploads into the database at start', () => {
  it('moves every upload once, deletes each file only when its row matches, and is idempotent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mchanga-migrate-'));
    const config = { dataDir: dir, uploadStorage: 'database' as const };
    mkdirSync(uploadsDir(config));
    const files = new Map<string, Buffer>();
    for (const kind of ['fuel-photo', 'delivery-photo', 'national-id', 'driver-photo']) {
      const file = name(kind);
      files.set(file, randomBytes(READ_CHUNK_BYTES + 100));
      writeFileSync(join(uploadsDir(config), file), files.get(file)!);
    }
    // A name both sides hold with different bytes: kept on disk, never overwritten.
    const clash = name();
    await uploadStore(database.db, config).put(clash, Buffer.from('in the database'), 'image/jpeg');
    writeFileSync(join(uploadsDir(config), clash), 'on the disk');
    writeFileSync(join(uploadsDir(config), 'notes.txt'), 'not an upload');
    try {
      const isUpload = (n: string) => NAME_PATTERN.test(n);
      expect(await migrateFilesToDatabase(database.db, config, isUpload)).toEqual({
        moved: 4,
        kept: [clash],
      });
      expect(readdirSync(uploadsDir(config)).sort()).toEqual([clash, 'notes.txt'].sort());
      for (const [file, bytes] of files) {
        const opened = await uploadStore(database.db, config).open(file);
        expect((await readAll(opened!.stream)).equals(bytes)).toBe(true);
      }
      expect(await migrateFilesToDatabase(database.db, config, isUpload)).toEqual({
        moved: 0,
        kept: [clash],
      });
      const clashRow = await uploadStore(database.db, config).open(clash);
      expect((await readAll(clashRow!.stream)).toString()).toBe('in the database');
      // The files store ignores all this.
      expect(
        await migrateFilesToDatabase(database.db, { dataDir: dir, uploadStorage: 'files' }, isUpload),
      ).toEqual({ moved: 0, kept: [] });
      expect(existsSync(join(uploadsDir(config), clash))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
