import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
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

/**
 * Raw SQL returning rows, on either driver and inside or outside a transaction (PGlite answers
 * `{ rows }`, postgres-js an array). The one way features run SQL the query builder cannot express.
 */
export async function rows<T = Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * Called for each NOTIFY on the channel with its payload, and with `undefined` when notifications may
 * have been missed (the listening connection was re-established): then assume anything changed.
 */
export type NotifyHandler = (payload: string | undefined) => void;

export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** LISTEN on a channel (lower-case name); resolves once listening. */
  listen(channel: string, handler: NotifyHandler): Promise<void>;
  /** Only for in-process PGlite: the underlying instance (tests dump and reload its data dir). */
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
  /**
   * PGlite in a thread of its own, reached over the PostgreSQL protocol by postgres-js (as in services
   * mode), so a heavy query does not stall the event loop. Needs dataDir. Off: PGlite in this thread.
   */
  thread?: boolean;
}

export const STATEMENT_TIMEOUT_MS = 15_000;
export const IDLE_IN_TRANSACTION_MS = 20_000;
export const LOCK_TIMEOUT_MS = 10_000;
const PING_TIMEOUT_MS = 1_500;

// Any fixed 64-bit number; every process that migrates takes this lock first, so two servers and a
// worker starting together apply each migration once.
const MIGRATION_LOCK_ID = 7_311_904_522;

export async function createDb(options: CreateDbOptions = {}): Promise<Database> {
  const { databaseUrl, dataDir, loadDataDir } = options;
  const shouldMigrate = options.migrate ?? true;

  if (databaseUrl) {
    if (shouldMigrate) await migratePostgresWithLock(postgres(databaseUrl, { max: 1, onnotice: () => {} }));
    const client = postgres(databaseUrl, {
      max: options.poolSize ?? 10,
      onnotice: () => {},
      // A request never waits long on a database that is away: it fails fast and answers 503.
      connect_timeout: 5,
      // No statement may hold a pooled connection for long, and no transaction may sit idle holding locks.
      connection: {
        statement_timeout: STATEMENT_TIMEOUT_MS,
        idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
        lock_timeout: LOCK_TIMEOUT_MS,
      },
    });
    const db = drizzlePostgres(client, { schema });
    return {
      db,
      driver: 'postgres',
      ping: () => pingWith(db),
      close: () => client.end({ timeout: 5 }),
      async listen(channel, handler) {
        let first = true;
        // postgres-js listens on a connection of its own and listens again after a reconnect.
        await client.listen(
          channel,
          (payload) => handler(payload),
          () => {
            if (!first) handler(undefined);
            first = false;
          },
        );
      },
    };
  }

  if (dataDir) mkdirSync(dataDir, { recursive: true });
  if (options.thread) {
    if (!dataDir) throw new Error('A PGlite thread needs a data directory.');
    return createThreadedPglite(dataDir, shouldMigrate);
  }
  const pglite = new PGlite({ dataDir, loadDataDir });
  await pglite.waitReady;
  const db = drizzlePglite(pglite, { schema });
  if (shouldMigrate) await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return {
    // The two drizzle flavours share every query-builder method this codebase uses.
    db: db as unknown as Db,
    driver: 'pglite',
    ping: () => pingWith(db as unknown as Db),
    close: () => pglite.close(),
    async listen(channel, handler) {
      await pglite.listen(channel, handler);
    },
    pglite,
  };
}

/** The worker's next message, given to `check`; an error or an exit first rejects. */
function onceFrom<M, T>(worker: Worker, what: string, check: (message: M) => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (message: M) => {
      cleanup();
      try {
        resolve(check(message));
      } catch (err) {
        reject(err);
      }
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new Error(`the PGlite thread exited (${code}) while ${what}`));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}

const PGLITE_THREAD = join(dirname(fileURLToPath(import.meta.url)), 'pglite-thread.worker.mjs');

/**
 * PGlite in a worker thread behind a Unix socket in a private temporary directory, and postgres-js on
 * one connection to it (PGlite has one backend: a pool would only queue in front of it). PGlite ignores
 * startup parameters, so the session timeouts of services mode do not apply here.
 */
async function createThreadedPglite(dataDir: string, shouldMigrate: boolean): Promise<Database> {
  const socketDir = mkdtempSync(join(tmpdir(), 'mchanga-pglite-'));
  const worker = new Worker(PGLITE_THREAD, {
    workerData: { dataDir, socketPath: join(socketDir, '.s.PGSQL.5432') },
  });
  const removeSocketDir = () => rmSync(socketDir, { recursive: true, force: true });
  try {
    await onceFrom(worker, 'starting', (m: { ready?: true; error?: string }) => {
      if (!m.ready) throw new Error(`PGlite could not start: ${m.error}`);
    });
  } catch (err) {
    await worker.terminate();
    removeSocketDir();
    throw err;
  }

  const channels = new Map<string, Set<NotifyHandler>>();
  const connect = (extra: postgres.Options<Record<string, never>> = {}) =>
    postgres({
      host: socketDir,
      port: 5432,
      user: 'postgres',
      database: 'postgres',
      onnotice: () => {},
      ...extra,
    });
  if (shouldMigrate) await migratePostgresWithLock(connect({ max: 1 }));
  const client = connect({
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    // The one backend delivers every NOTIFY on whatever connection it is serving: this one.
    onnotify: (channel: string, payload: string) => {
      for (const handler of channels.get(channel) ?? []) handler(payload);
    },
  } as postgres.Options<Record<string, never>>);
  const db = drizzlePostgres(client, { schema });
  return {
    db,
    driver: 'pglite',
    ping: () => pingWith(db),
    async close() {
      await client.end({ timeout: 5 });
      const closed = onceFrom(worker, 'closing', (m: { closed?: true; error?: string }) => m.error);
      worker.postMessage('close');
      const error = await closed.catch((err: Error) => err.message);
      await worker.terminate();
      removeSocketDir();
      if (error) throw new Error(`PGlite did not close cleanly: ${error}`);
    },
    async listen(channel, handler) {
      let handlers = channels.get(channel);
      if (!handlers) {
        handlers = new Set();
        channels.set(channel, handlers);
        // LISTEN belongs to PGlite's one session, so it holds across reconnects of this client.
        if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
        await client.unsafe(`listen ${channel}`);
      }
      handlers.add(handler);
    },
  };
}

/** Health's probe: `select 1`, false on any error or after 1.5 s (health never hangs on a stalled database). */
async function pingWith(db: Db): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
  });
  try {
    return await Promise.race([db.execute(sql`select 1`).then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

async function migratePostgresWithLock(client: postgres.Sql) {
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    await migratePostgres(drizzlePostgres(client), { migrationsFolder: MIGRATIONS_FOLDER });
    await client`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
  } finally {
    await client.end({ timeout: 5 });
  }
}
