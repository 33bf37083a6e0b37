import { hostname } from 'node:os';
import type { JobContext } from '../jobs/context';
import { upsertHeartbeat } from './heartbeat.queries';

/** Records that this runner is alive; /api/health reads the newest beat to tell a consuming worker from a dead one. */
export async function recordHeartbeat(ctx: Pick<JobContext, 'db' | 'now' | 'workerId' | 'transport'>) {
  const seenAt = ctx.now();
  await upsertHeartbeat(ctx.db, {
    workerId: ctx.workerId,
    transport: ctx.transport,
    host: hostname(),
    pid: process.pid,
    seenAt,
  });
  return { seenAt: seenAt.toISOString() };
}
