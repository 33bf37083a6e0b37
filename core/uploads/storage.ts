import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { eq, inArray, sql } from 'drizzle-orm';
import { type DbOrTx, rows } from '../../drizzle/db';
import { uploads } from '../../drizzle/schema';
import type { Settings } from '../../shared/settings';

/**
 * Where uploaded files live. One interface, two places: `database` (the `uploads` table, shared by every
 * server instance and in every pg_dump; the services-mode default) and `files` (DATA_DIR/uploads, one
 * machine's disk; the embedded default). Callers never see which.
 */
export interface UploadStore {
  readonly kind: UploadStorage;
  put(name: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The file's type and size and a stream of its bytes; undefined when there is no such file. */
  open(name: string): Promise<StoredUpload | undefined>;
  /** Deletes files; a name already gone is fine. */
  remove(names: readonly string[]): Promise<void>;
}

export type UploadStorage = Settings['uploadStorage'];

export interface StoredUpload {
  contentType: string;
  size: number;
  stream: Readable;
}

export type UploadConfig = Pick<Settings, 'dataDir' | 'uploadStorage'>;

/** Slices a database read takes at a time: a large image never sits whole in one query's answer. */
export const READ_CHUNK_BYTES = 256 * 1024;

export function uploadsDir(config: Pick<Settings, 'dataDir'>): string {
  return join(config.dataDir, 'uploads');
}

export function uploadStore(db: DbOrTx, config: UploadConfig): UploadStore {
  return config.uploadStorage === 'database' ? databaseStore(db) : fileStore(uploadsDir(config));
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const typeOf = (name: string) => (name.endsWith('.jpg') ? 'image/jpeg' : 'application/octet-stream');

function fileStore(dir: string): UploadStore {
  return {
    kind: 'files',
    async put(name, bytes) {
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, name), bytes, { mode: 0o600 });
    },
    async open(name) {
      const path = join(dir, name);
      const info = await stat(path).catch(() => undefined);
      if (!info?.isFile()) return undefined;
      return { contentType: typeOf(name), size: info.size, stream: createReadStream(path) };
    },
    async remove(names) {
      await Promise.all(names.map((name) => rm(join(dir, name), { force: true }).catch(() => undefined)));
    },
  };
}

function databaseStore(db: DbOrTx): UploadStore {
  return {
    kind: 'database',
    async put(name, bytes, contentType) {
      await db
        .insert(uploads)
        .values({ name, contentType, size: bytes.length, sha256: sha256(bytes), data: bytes });
    },
    async open(name) {
      const [head] = await db
        .select({ contentType: uploads.contentType, size: uploads.size, sha256: uploads.sha256 })
        .from(uploads)
        .where(eq(uploads.name, name));
      if (!head) return undefined;
      return {
        contentType: head.contentType,
        size: head.size,
        stream: Readable.from(readSlices(db, name, head.size, head.sha256)),
      };
    },
    async remove(names) {
      if (names.length) await db.delete(uploads).where(inArray(uploads.name, [...names]));
    },
  };
}

/**
 * The bytes in READ_CHUNK_BYTES slices (substring of an uncompressed out-of-line value reads only the
 * pages it needs), checked against the stored checksum at the end: a file changed or cut short fails
 * the stream instead of arriving silently wrong.
 */
async function* readSlices(db: DbOrTx, name: string, size: number, expected: string) {
  const hash = createHash('sha256');
  for (let offset = 0; offset < size; offset += READ_CHUNK_BYTES) {
    const [row] = await rows<{ chunk: Uint8Array | null }>(
      db,
      sql`select substring(data from ${offset + 1} for ${READ_CHUNK_BYTES}) as chunk from uploads where name = ${name}`,
    );
    if (!row?.chunk?.length) throw new Error(`upload ${name} is shorter than its recorded size`);
    const chunk = Buffer.from(row.chunk.buffer, row.chunk.byteOffset, row.chunk.byteLength);
    hash.update(chunk);
    yield chunk;
  }
  if (hash.digest('hex') !== expected) throw new Error(`upload ${name} does not match its checksum`);
}

/**
 * Moves files an older version kept in DATA_DIR/uploads into the database store, at start. Each file is
 * inserted unless a row of that name exists, and deleted from disk only once the row's checksum matches
 * the file: run again (or by two servers at once) it redoes nothing and loses nothing. Returns how many
 * files it moved; names that are not upload names are left alone.
 */
export async function migrateFilesToDatabase(
  db: DbOrTx,
  config: UploadConfig,
  isUploadName: (name: string) => boolean,
): Promise<{ moved: number; kept: string[] }> {
  if (config.uploadStorage !== 'database') return { moved: 0, kept: [] };
  const dir = uploadsDir(config);
  const names = (await readdir(dir).catch(() => [] as string[])).filter(isUploadName).sort();
  let moved = 0;
  const kept: string[] = [];
  for (const name of names) {
    const bytes = await readFile(join(dir, name));
    const digest = sha256(bytes);
    await db
      .insert(uploads)
      .values({ name, contentType: typeOf(name), size: bytes.length, sha256: digest, data: bytes })
      .onConflictDoNothing({ target: uploads.name });
    const [row] = await db.select({ sha256: uploads.sha256 }).from(uploads).where(eq(uploads.name, name));
    if (row?.sha256 === digest) {
      await rm(join(dir, name), { force: true });
      moved++;
    } else kept.push(name);
  }
  return { moved, kept };
}
