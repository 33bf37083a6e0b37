import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
  /** PGlite only (either flavour): the data directory as a gzipped tarball, for backups (issue 25). */
  dumpDataDir?(): Promise<Uint8Array>;
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
   * A direct connection to PostgreSQL when `databaseUrl` goes through a pooler (PgBouncer in transaction
   * mode): migrations, their advisory lock, the session defaults and LISTEN need a session of their own.
   * Given, the pool also stops naming prepared statements (PgBouncer 1.18 cannot carry them).
   */
  directUrl?: string | undefined;
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
    const directUrl = options.directUrl ?? databaseUrl;
    const pooled = directUrl !== databaseUrl;
    const direct = postgres(directUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
    try {
      if (shouldMigrate) await migratePostgresWithLock(direct);
      await applySessionDefaults(direct);
    } finally {
      await direct.end({ timeout: 5 });
    }
    const client = postgres(databaseUrl, {
      max: options.poolSize ?? 10,
      onnotice: () => {},
      // A request never waits long on a database that is away: it fails fast and answers 503.
      connect_timeout: 5,
      // No startup parameters: PgBouncer refuses them. The timeouts are this role's defaults in this
      // database (applySessionDefaults), which every new server connection takes, pooled or not.
      prepare: !pooled,
      // Through a pooler, one query at a time on a connection. postgres-js otherwise writes the next query
      // behind one still running when the pool is full, and PgBouncer in transaction mode may hand the
      // server back at the first ReadyForQuery and drop the answers to what followed ("got packet '1' from
      // server when not linked"): the worker's telemetry job waited forever on such a query, and the
      // worker would not stop (CI, 1 in ~15 runs of the PgBouncer journey; porsager/postgres#970).
      // `max_pipeline` is missing from postgres-js's types; 0 needs the begin() fix in
      // patches/postgres+3.4.9.patch.
      ...(pooled ? ({ max_pipeline: 0 } as object) : {}),
    });
    let listener: postgres.Sql | undefined;
    const db = drizzlePostgres(client, { schema });
    return {
      db,
      driver: 'postgres',
      ping: () => pingWith(db),
      async close() {
        await Promise.all([client.end({ timeout: 5 }), listener?.end({ timeout: 5 })]);
      },
      async listen(channel, handler) {
        // LISTEN holds a session: on the direct connection, never through the pooler. postgres-js listens
        // on a connection of its own and listens again after a reconnect.
        listener ??= postgres(directUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
        let first = true;
        await listener.listen(
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
    async dumpDataDir() {
      return new Uint8Array(await (await pglite.dumpDataDir('gzip')).arrayBuffer());
    },
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
  if (shouldMigrate) await migratePostgresWithLock(connect({ max: 1 }), true);
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
  let dumping: Promise<Uint8Array> | undefined;
  return {
    db,
    driver: 'pglite',
    ping: () => pingWith(db),
    dumpDataDir() {
      // One dump at a time: the thread answers them in order, and its messages carry no id.
      if (!dumping) {
        dumping = onceFrom(worker, 'dumping', (m: { dumped?: Uint8Array; dumpError?: string }) => {
          if (!m.dumped) throw new Error(`PGlite could not dump its data directory: ${m.dumpError}`);
          return m.dumped;
        }).finally(() => {
          dumping = undefined;
        });
        worker.postMessage('dump');
      }
      return dumping;
    },
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

let journal: number[] | undefined;

/**
 * How many of this build's migrations the database has not applied (readiness: a server may answer only
 * once its schema is there). drizzle records each applied migration's journal time.
 */
export async function pendingMigrations(db: DbOrTx): Promise<number> {
  journal ??= (
    JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
      entries: Array<{ when: number }>;
    }
  ).entries.map((e) => e.when);
  const [applied] = await rows<{ exists: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as exists`,
  );
  if (!applied?.exists) return journal.length;
  const [last] = await rows<{ at: string | null }>(
    db,
    sql`select max(created_at)::text as at from drizzle.__drizzle_migrations`,
  );
  const at = Number(last?.at ?? 0);
  return journal.filter((when) => when > at).length;
}

/** Closes the client it is given (PGlite's thread path hands it a client of its own). */
async function migratePostgresWithLock(client: postgres.Sql, close = false) {
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    await migratePostgres(drizzlePostgres(client), { migrationsFolder: MIGRATIONS_FOLDER });
    await client`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
  } finally {
    if (close) await client.end({ timeout: 5 });
  }
}

/** What every session of the app runs with: no statement holds a connection long, no transaction idles. */
export const SESSION_DEFAULTS = {
  statement_timeout: `${STATEMENT_TIMEOUT_MS}ms`,
  idle_in_transaction_session_timeout: `${IDLE_IN_TRANSACTION_MS}ms`,
  lock_timeout: `${LOCK_TIMEOUT_MS}ms`,
} as const;

/**
 * Makes the session timeouts this role's defaults in this database (`ALTER ROLE … IN DATABASE … SET`),
 * so every connection PostgreSQL starts for us has them — directly or behind PgBouncer, which refuses
 * them as startup parameters. Idempotent; written only when they differ, under a transaction lock so
 * servers starting together do not collide.
 */
async function applySessionDefaults(client: postgres.Sql) {
  const wanted = Object.entries(SESSION_DEFAULTS).map(([k, v]) => `${k}=${v}`);
  await client.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`;
    const [row] = await tx<{ setconfig: string[] | null }[]>`
      select s.setconfig from pg_db_role_setting s
      join pg_database d on d.oid = s.setdatabase and d.datname = current_database()
      join pg_roles r on r.oid = s.setrole and r.rolname = current_user`;
    const have = new Set(row?.setconfig ?? []);
    if (wanted.every((w) => have.has(w))) return;
    const [names] = await tx<{ role: string; db: string }[]>`
      select quote_ident(current_user) as role, quote_ident(current_database()) as db`;
    for (const [key, value] of Object.entries(SESSION_DEFAULTS))
      await tx.unsafe(`alter role ${names!.role} in database ${names!.db} set ${key} = '${value}'`);
  });
}
