import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import * as schema from './schema';

export const MIGRATIONS_FOLDER = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Both drivers expose the same query builder; this is the type every feature codes against. */
export type Db = ReturnType<typeof drizzlePostgres<typeof schema>>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Service functions take either, so they compose inside a caller's transaction. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  /** Raw SQL returning rows on both drivers (PGlite answers `{ rows }`, postgres-js an array). */
  rows<T = Record<string, unknown>>(query: SQL): Promise<T[]>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** Only for PGlite: the underlying instance (tests dump and reload its data dir). */
  pglite?: PGlite;
}

export interface CreateDbOptions {
  databaseUrl?: string | undefined;
  /** Directory for PGlite's files; omitted means an in-memory database. */
  dataDir?: string | undefined;
  /** A dumped PGlite data dir to start from (tests: migrate once, reload per file). */
  loadDataDir?: Blob | File | undefined;
  migrate?: boolean;
  /** postgres-js pool size per process. */
  poolSize?: number;
}

// Any fixed 64-bit number; every process that migrates takes this lock first, so two servers and a
// worker starting together apply each migration once.
const MIGRATION_LOCK_ID = 7_311_904_522;

export async function createDb(options: CreateDbOptions = {}): Promise<Database> {
  const { databaseUrl, dataDir, loadDataDir } = options;
  const shouldMigrate = options.migrate ?? true;

  if (databaseUrl) {
    if (shouldMigrate) await migratePostgresWithLock(databaseUrl);
    const client = postgres(databaseUrl, { max: options.poolSize ?? 10, onnotice: () => {} });
    const db = drizzlePostgres(client, { schema });
    return {
      db,
      driver: 'postgres',
      rows: async <T>(query: SQL) => (await db.execute(query)) as unknown as T[],
      ping: () => pingWith(db),
      close: () => client.end({ timeout: 5 }),
    };
  }

  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pglite = new PGlite({ dataDir, loadDataDir });
  await pglite.waitReady;
  const db = drizzlePglite(pglite, { schema });
  if (shouldMigrate) await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return {
    // The two drizzle flavours share every query-builder method this codebase uses.
    db: db as unknown as Db,
    driver: 'pglite',
    rows: async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows,
    ping: () => pingWith(db as unknown as Db),
    close: () => pglite.close(),
    pglite,
  };
}

async function pingWith(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

async function migratePostgresWithLock(databaseUrl: string) {
  const client = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    await migratePostgres(drizzlePostgres(client), { migrationsFolder: MIGRATIONS_FOLDER });
    await client`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
  } finally {
    await client.end({ timeout: 5 });
  }
}
