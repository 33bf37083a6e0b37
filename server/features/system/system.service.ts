import type { Database, DbOrTx } from '../../../drizzle/db';
import type { JobQueue } from '../../../shared/jobs';
import type { THealth } from '../../../shared/schemas/system';
import { lastHeartbeat } from './system.queries';

/** Liveness of the database and the job transport, with the worker's last heartbeat. */
export async function health(
  db: DbOrTx,
  services: { database: Pick<Database, 'ping' | 'driver'>; jobs: Pick<JobQueue, 'health' | 'transport'> },
  now: Date,
): Promise<THealth> {
  const { database, jobs } = services;
  const [dbOk, jobHealth] = await Promise.all([database.ping(), jobs.health().catch(() => ({ ok: false }))]);
  const beat = dbOk ? await lastHeartbeat(db) : undefined;
  return {
    status: dbOk && jobHealth.ok ? 'ok' : 'degraded',
    database: { ok: dbOk, driver: database.driver },
    jobs: { ...jobHealth, transport: jobs.transport, lastHeartbeatAt: beat?.toISOString() ?? null },
    time: now.toISOString(),
  };
}
