/**
 * The staff action log (issue 25). Made hard to forget: every mutation runs inside an activity scope
 * (opened by the tRPC dependency guard, server/trpc.ts) that knows who is acting, from where and through
 * which procedure; the use case only says what it changed — `recordChange(tx, …)` inside the transaction
 * of the write — and the entry is written in that same transaction. The scope counts what was recorded,
 * so a mutation that wrote nothing to the log is reported (and fails server/activity.test.ts, which walks
 * every mutation procedure).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DbOrTx } from '../../drizzle/db';
import { type Changes, changesBetween } from '../../shared/domain/activity';
import type { Role } from '../../shared/roles';
import { insertActivity } from './activity.queries';

export interface Actor {
  id: number;
  name: string;
  role: Role;
}

export interface ActivityScope {
  /** The signed-in user; null for an anonymous call (sign-in and registration name the user themselves). */
  actor: Actor | null;
  /** The procedure, e.g. `admin.costs.update`: the entry's action unless the use case names another. */
  procedure: string;
  ip: string | null;
  userAgent: string | null;
  /** Entries written under this scope (the guard reports a mutation that wrote none). */
  recorded: number;
  /** The use case found nothing to change (a replay answered with its first result). */
  unchanged: boolean;
}

const scopes = new AsyncLocalStorage<ActivityScope>();

/**
 * Mutations in flight. On Node 20 an AsyncLocalStorage, once run, turns on promise hooks for the whole
 * process and leaves them on: every awaited promise costs ~5× (117 → 640 ns here), so after the first
 * staff write every request paid for them (the public quote about 40 µs of server CPU more per call).
 * So the storage is switched off again whenever no mutation is running (disable() exits no context then:
 * there is none) and back on with the next one.
 */
let running = 0;

function closeOne() {
  running--;
  if (running === 0) scopes.disable();
}

/** Runs a mutation with its activity scope, until what it returns has settled. */
export function inActivityScope<T>(scope: Omit<ActivityScope, 'recorded' | 'unchanged'>, run: () => T): T {
  running++;
  let result: T;
  try {
    result = scopes.run({ ...scope, recorded: 0, unchanged: false }, run);
  } catch (err) {
    closeOne();
    throw err;
  }
  if (result instanceof Promise) return result.finally(closeOne) as T;
  closeOne();
  return result;
}

/** Activity scopes still running (0 when the storage, and with it Node's promise hooks, is off). */
export function openActivityScopes(): number {
  return running;
}

/** Said by a use case that changed nothing on purpose (a replay, a no-op): no entry is due. */
export function nothingChanged(): void {
  const scope = scopes.getStore();
  if (scope) scope.unchanged = true;
}

export function currentActivityScope(): ActivityScope | undefined {
  return scopes.getStore();
}

export interface Change {
  entity: string;
  entityId: string | number | null;
  /** The record before the write (null when it is new) and after it (null when it is gone). */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** Already-made changes (events without a record: a sign-in, a failed sign-in). */
  changes?: Changes;
  /** The action when it is not the procedure's name (`auth.signInFailed`). */
  action?: string;
  /** Who acted when the scope has nobody signed in yet (sign-in, registration, a password reset by link). */
  actor?: Actor | null;
}

/**
 * Writes one entry with `db`, which must be the transaction of the write it describes. Outside a scope
 * (a job, start-up) nothing is written: the log is of people's writes. Anonymous calls without an actor
 * of their own (a guest order) are not a signed-in user's write either.
 */
export async function recordChange(db: DbOrTx, change: Change): Promise<void> {
  const scope = scopes.getStore();
  if (!scope) return;
  const actor = change.actor !== undefined ? change.actor : scope.actor;
  if (!actor && change.action !== 'auth.signInFailed') return;
  await insertActivity(db, {
    userId: actor?.id ?? null,
    userName: actor?.name ?? null,
    role: actor?.role ?? null,
    action: change.action ?? scope.procedure,
    entity: change.entity,
    entityId: change.entityId === null ? null : String(change.entityId),
    changes: change.changes ?? changesBetween(change.before ?? null, change.after ?? null),
    ip: scope.ip,
    userAgent: scope.userAgent,
  });
  scope.recorded += 1;
}
