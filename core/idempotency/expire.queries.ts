import { asc, inArray, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { idempotencyKeys } from '../../drizzle/schema';

/** Deletes up to `limit` stored keys created before `before` (oldest first); answers how many went. */
export async function deleteKeysCreatedBefore(db: DbOrTx, before: Date, limit: number): Promise<number> {
  const oldest = db
    .select({ id: idempotencyKeys.id })
    .from(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, before))
    .orderBy(asc(idempotencyKeys.id))
    .limit(limit);
  const gone = await db
    .delete(idempotencyKeys)
    .where(inArray(idempotencyKeys.id, oldest))
    .returning({ id: idempotencyKeys.id });
  return gone.length;
}
