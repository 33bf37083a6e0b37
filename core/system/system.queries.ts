import { desc, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { healthProbe, workerHeartbeats } from '../../drizzle/schema';

export async function lastHeartbeat(db: DbOrTx): Promise<Date | undefined> {
  const [beat] = await db
    .select({ seenAt: workerHeartbeats.seenAt })
    .from(workerHeartbeats)
    .orderBy(desc(workerHeartbeats.seenAt))
    .limit(1);
  return beat?.seenAt;
}

/** The write probe: one row rewritten (fails on a read-only database, one out of disk, one refusing us). */
export async function probeWrite(db: DbOrTx): Promise<void> {
  await db
    .insert(healthProbe)
    .values({ id: 1, checkedAt: sql`now()` })
    .onConflictDoUpdate({ target: healthProbe.id, set: { checkedAt: sql`now()` } });
}
