import { dedupeIdFor, JOBS, type JobName, type JobPayload, type TAlert } from '../shared/jobs';
import type { DbOrTx } from './db';
import { outbox } from './schema';

/**
 * Writes a job to the outbox inside the caller's transaction: it is enqueued (by worker/outbox-relay.ts)
 * only if the change it belongs to commits, and it is never lost when Redis or the process is down.
 */
export async function writeOutbox<N extends JobName>(tx: DbOrTx, job: N, payload: JobPayload<N>) {
  const parsed = JOBS[job].payload.parse(payload) as JobPayload<N>;
  const [row] = await tx
    .insert(outbox)
    .values({
      job,
      payload: parsed,
      dedupeId: dedupeIdFor(job, parsed) ?? `outbox:${job}:${crypto.randomUUID()}`,
    })
    .returning({ id: outbox.id });
  return row!.id;
}

/** Raises a business alert with the change it reports (same transaction). */
export function raiseAlert(tx: DbOrTx, alert: TAlert) {
  return writeOutbox(tx, 'alert.fanout', alert);
}
