import { and, asc, eq, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { outbox } from '../../drizzle/schema';

// Due-ness is judged by the database's clock, the one that stamped the rows.
const due = and(isNull(outbox.sentAt), lte(outbox.availableAt, sql`now()`));

/**
 * Claims due rows, oldest first, for `leaseMs`: another relay skips them meanwhile, and a relay that dies
 * holding them leaves them due again when the lease ends. No transaction stays open while enqueueing.
 */
export async function claimDue(db: DbOrTx, limit: number, leaseMs: number) {
  const picked = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(due)
    .orderBy(asc(outbox.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(outbox)
    .set({ availableAt: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
    .where(inArray(outbox.id, picked))
    .returning();
  return rows.sort((a, b) => a.id - b.id);
}

/** Rows claimed but not tried (the queue went down first) are due again at once. */
export function release(db: DbOrTx, ids: number[]) {
  return db.update(outbox).set({ availableAt: sql`now()` }).where(inArray(outbox.id, ids));
}

export function markSent(tx: DbOrTx, ids: number[]) {
  return tx.update(outbox).set({ sentAt: sql`now()` }).where(inArray(outbox.id, ids));
}

export function markFailed(tx: DbOrTx, id: number, error: string, retryInMs: number) {
  return tx
    .update(outbox)
    .set({
      attempts: sql`${outbox.attempts} + 1`,
      lastError: error.slice(0, 500),
      availableAt: sql`now() + make_interval(secs => ${retryInMs / 1000})`,
    })
    .where(eq(outbox.id, id));
}

export async function pendingCount(db: DbOrTx) {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(outbox).where(due);
  return row?.n ?? 0;
}

/** Sent rows are kept a week for inspection, then removed. */
export function pruneSent(db: DbOrTx) {
  return db.delete(outbox).where(lt(outbox.sentAt, sql`now() - interval '7 days'`));
}
