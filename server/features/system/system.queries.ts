import { desc } from 'drizzle-orm';
import type { DbOrTx } from '../../../drizzle/db';
import { workerHeartbeats } from '../../../drizzle/schema';

export async function lastHeartbeat(db: DbOrTx): Promise<Date | undefined> {
  const [beat] = await db
    .select({ seenAt: workerHeartbeats.seenAt })
    .from(workerHeartbeats)
    .orderBy(desc(workerHeartbeats.seenAt))
    .limit(1);
  return beat?.seenAt;
}
