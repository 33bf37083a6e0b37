import type { Database, Db } from '../../drizzle/db';

/** The channel the table triggers of migration 0010 notify, with the table's name as the payload. */
export const CACHE_CHANNEL = 'mchanga_cache';
/** The safety net: a change whose NOTIFY never arrived (a dropped listener) is seen within this long. */
export const CACHE_TTL_MS = 5_000;

/**
 * A value read from the database and kept in memory until its table changes (a NOTIFY from any server
 * instance, worker or psql session) or its TTL runs out. Concurrent misses share one read, and a read
 * that was under way when a change arrived is returned but not kept.
 */
export class Cached<T> {
  private value: { data: T; until: number } | undefined;
  private loading: Promise<T> | undefined;
  private generation = 0;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly ready: Promise<unknown>,
    private readonly ttlMs = CACHE_TTL_MS,
  ) {}

  /** The cached value when it is fresh (no promise to await on the hot path), else a read. */
  peek(): T | undefined {
    const value = this.value;
    return value && Date.now() < value.until ? value.data : undefined;
  }

  get(): Promise<T> {
    const fresh = this.peek();
    if (fresh !== undefined) return Promise.resolve(fresh);
    if (this.loading) return this.loading;
    const generation = this.generation;
    const loading = this.ready
      .then(() => this.load())
      .then(
        (data) => {
          if (generation === this.generation) this.value = { data, until: Date.now() + this.ttlMs };
          if (this.loading === loading) this.loading = undefined;
          return data;
        },
        (err: unknown) => {
          if (this.loading === loading) this.loading = undefined;
          throw err;
        },
      );
    this.loading = loading;
    return loading;
  }

  invalidate() {
    this.generation += 1;
    this.value = undefined;
    this.loading = undefined;
  }
}

interface Registry {
  ready: Promise<unknown>;
  byName: Map<string, { table: string; cached: Cached<unknown> }>;
}

const registries = new WeakMap<Database, Registry>();

function registryOf(database: Database): Registry {
  let registry = registries.get(database);
  if (registry) return registry;
  const byName: Registry['byName'] = new Map();
  const ready = database
    .listen(CACHE_CHANNEL, (table) => {
      for (const entry of byName.values())
        if (table === undefined || entry.table === table) entry.cached.invalidate();
    })
    // Without a listener the TTL alone keeps the copies close to the database.
    .catch(() => undefined);
  registry = { ready, byName };
  registries.set(database, registry);
  return registry;
}

/**
 * The one cached value called `name` for this database, read by `load` and dropped whenever `table`
 * changes. The table needs a `*_cache_notify` trigger (migration 0010).
 */
export function tableCache<T>(
  database: Database,
  table: string,
  name: string,
  load: (db: Db) => Promise<T>,
): Cached<T> {
  const registry = registryOf(database);
  let entry = registry.byName.get(name);
  if (!entry) {
    entry = { table, cached: new Cached(() => load(database.db), registry.ready) };
    registry.byName.set(name, entry);
  }
  return entry.cached as Cached<T>;
}
