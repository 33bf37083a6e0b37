/**
 * `Idempotency-Key` for field writes a phone may replay (the device outbox resends whatever it is not sure
 * reached the server). A procedure opts in with `meta({ idempotent: true })` and `.use(idempotent)` after
 * its `.input()`; the key then works the same over REST and tRPC (one call per request: a tRPC batch
 * shares one header).
 *
 * The first successful answer is stored with the key, unique per user; a replay answers it again and
 * never runs the write a second time. Replays that race are serialised by a transaction-scoped advisory
 * lock on (user, key), with the unique index as the backstop; the write itself runs inside that
 * transaction, so the row and the key commit together or not at all. The same key with a different body
 * is refused with 422. A refused write (4xx) stores nothing: its replay is judged afresh.
 */
import { createHash } from 'node:crypto';
import { nothingChanged } from '../core/activity/activity';
import { appError } from '../core/errors';
import { findKey, lockKey, storeKey } from '../core/idempotency/keys.queries';
import type { Db } from '../drizzle/db';
import { middleware } from './trpc';

export const IDEMPOTENCY_MESSAGES = {
  invalidKey: 'Idempotency-Key must be 1 to 200 visible characters.',
  keyReused: 'This Idempotency-Key was already used for a different request.',
} as const;

const KEY = /^[\x21-\x7e]{1,200}$/;

/** JSON with object keys sorted, so the same input always hashes the same. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );
}

export function requestHash(route: string, input: unknown): string {
  return createHash('sha256')
    .update(`${route}\n${canonical(input ?? null)}`)
    .digest('hex');
}

/** What a write made, for the table: its `id` when it has one. */
function createdIdOf(data: unknown): string | null {
  const id = data && typeof data === 'object' ? (data as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
}

/** Carries a refused write's result out of its transaction, so the transaction rolls back. */
class Refused {
  constructor(readonly result: unknown) {}
}

export const idempotent = middleware(async ({ ctx, meta, path, input, next }) => {
  if (!meta?.idempotent) throw new Error(`${path} uses idempotent without meta({ idempotent: true })`);
  const key = ctx.idempotencyKey;
  if (key === undefined || !ctx.user) return next();
  if (!KEY.test(key)) throw appError('BAD_REQUEST', IDEMPOTENCY_MESSAGES.invalidKey);
  const userId = ctx.user.id;
  const hash = requestHash(path, input);
  const status = meta.rest?.status ?? 200;
  type Result = Awaited<ReturnType<typeof next>>;
  try {
    return await ctx.db.transaction(async (tx): Promise<Result> => {
      await lockKey(tx, userId, key);
      const first = await findKey(tx, userId, key);
      if (first) {
        if (first.route !== path || first.requestHash !== hash)
          throw appError('UNPROCESSABLE_CONTENT', IDEMPOTENCY_MESSAGES.keyReused);
        // The stored answer, as the procedure's own would be (a middleware result tRPC passes on); the
        // first call's action log entry stands for it.
        nothingChanged();
        return { ok: true, data: first.responseBody, marker: 'middlewareMarker' } as unknown as Result;
      }
      const result = await next({ ctx: { db: tx as unknown as Db } });
      if (!result.ok) throw new Refused(result);
      await storeKey(tx, {
        key,
        userId,
        route: path,
        requestHash: hash,
        responseStatus: status,
        responseBody: (result.data ?? null) as never,
        createdId: createdIdOf(result.data),
      });
      return result;
    });
  } catch (err) {
    if (err instanceof Refused) return err.result as Result;
    throw err;
  }
});
