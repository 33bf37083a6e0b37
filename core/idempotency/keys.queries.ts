import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { idempotencyKeys } from '../../drizzle/schema';

export type StoredKey = typeof idempotencyKeys.$inferSelect;

/**
 * Holds (user, key) for the rest of the transaction: replays of one key that race are served one at a
 * time (the unique index on the table is the backstop).
 */
export async function lockKey(tx: DbOrTx, userId: number, key: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`idem:${userId}:${key}`}, 0))`);
}

/** The answer stored for this user's key, if the first call succeeded. */
export async function findKey(tx: DbOrTx, userId: number, key: string): Promise<StoredKey | undefined> {
  const [first] = await tx
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
    .limit(1);
  return first;
}

/** Keeps the first successful answer with its key, in the write's own transaction. */
export async function storeKey(tx: DbOrTx, row: typeof idempotencyKeys.$inferInsert) {
  await tx.insert(idempotencyKeys).values(row);
}
