import type { DbOrTx } from '../../drizzle/db';
import { workerHeartbeats } from '../../drizzle/schema';

export function upsertHeartbeat(db: DbOrTx, beat: typeof workerHeartbeats.$inferInsert) {
  return db
    .insert(workerHeartbeats)
    .values(beat)
    .onConflictDoUpdate({
      target: workerHeartbeats.workerId,
      set: { seenAt: beat.seenAt, transport: beat.transport },
    });
}
