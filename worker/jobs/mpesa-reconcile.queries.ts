import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { mpesaCallbacks, mpesaStkRequests, payments } from '../../drizzle/schema';

/** Callbacks stored before `before` whose processing never finished (the job failed or was lost). */
export function stuckCallbacks(db: DbOrTx, before: Date, limit = 100) {
  return db
    .select({ id: mpesaCallbacks.id })
    .from(mpesaCallbacks)
    .where(and(isNull(mpesaCallbacks.processedAt), lt(mpesaCallbacks.receivedAt, before)))
    .orderBy(asc(mpesaCallbacks.receivedAt))
    .limit(limit);
}

export async function recordCallbackError(db: DbOrTx, id: number, error: string) {
  await db.update(mpesaCallbacks).set({ error }).where(eq(mpesaCallbacks.id, id));
}

/**
 * Prompts still PENDING that were sent before `sentBefore` and not asked about since `askedBefore`, at most
 * `maxQueries` times each: the ones whose callback has not come.
 */
export function promptsToQuery(
  db: DbOrTx,
  sentBefore: Date,
  askedBefore: Date,
  maxQueries: number,
  limit = 50,
) {
  return db
    .select({ id: mpesaStkRequests.id, checkoutRequestId: mpesaStkRequests.checkoutRequestId })
    .from(mpesaStkRequests)
    .where(
      and(
        eq(mpesaStkRequests.status, 'PENDING'),
        lt(mpesaStkRequests.createdAt, sentBefore),
        or(isNull(mpesaStkRequests.queriedAt), lt(mpesaStkRequests.queriedAt, askedBefore)),
        lt(mpesaStkRequests.queryCount, maxQueries),
      ),
    )
    .orderBy(asc(mpesaStkRequests.createdAt))
    .limit(limit);
}

export async function recordQuery(db: DbOrTx, id: number, at: Date, error: string | null) {
  await db
    .update(mpesaStkRequests)
    .set({
      queriedAt: at,
      queryCount: sql`${mpesaStkRequests.queryCount} + 1`,
      queryError: error,
      updatedAt: at,
    })
    .where(eq(mpesaStkRequests.id, id));
}

/** How much is still unreconciled: unmatched payments, prompts without a result, unprocessed callbacks. */
export async function unreconciledCounts(db: DbOrTx, promptsSentBefore: Date, callbacksBefore: Date) {
  const [row] = await db
    .select({
      unmatched: sql<number>`(select count(*) from ${payments} where ${payments.orderId} is null)::int`,
      prompts: sql<number>`(select count(*) from ${mpesaStkRequests} where ${mpesaStkRequests.status} = 'PENDING' and ${mpesaStkRequests.createdAt} < ${promptsSentBefore.toISOString()}::timestamptz)::int`,
      callbacks: sql<number>`(select count(*) from ${mpesaCallbacks} where (${mpesaCallbacks.processedAt} is null and ${mpesaCallbacks.receivedAt} < ${callbacksBefore.toISOString()}::timestamptz) or ${mpesaCallbacks.outcome} = 'unreadable')::int`,
    })
    .from(sql`(select 1) as one`);
  return {
    unmatched: Number(row?.unmatched ?? 0),
    prompts: Number(row?.prompts ?? 0),
    callbacks: Number(row?.callbacks ?? 0),
  };
}
