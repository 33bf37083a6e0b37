import { hostname } from 'node:os';
import type { Database } from '../drizzle/db';
import { workerHeartbeats } from '../drizzle/schema';
import type { JobName, JobPayload } from '../shared/jobs';
import { fanOutAlert } from './jobs/alert-fanout';
import { ingestPositions } from './jobs/telemetry-ingest';

export interface JobContext {
  jobId: string;
  attempt: number;
  transport: 'bullmq' | 'in-process';
  /** Identifies this runner (host:pid) in heartbeats and logs. */
  workerId: string;
}

export type JobHandler<N extends JobName> = (payload: JobPayload<N>, ctx: JobContext) => Promise<unknown>;
export type JobHandlers = { [N in JobName]: JobHandler<N> };

export interface HandlerDeps {
  database: Database;
  now?: () => Date;
}

export function workerIdentity(): string {
  return `${hostname()}:${process.pid}`;
}

/** Maps every declared job to exactly one handler; a job added to shared/jobs.ts without one fails to compile. */
export function createHandlers(deps: HandlerDeps): JobHandlers {
  const now = deps.now ?? (() => new Date());
  return {
    'system.heartbeat': async (_payload, ctx) => {
      const seenAt = now();
      await deps.database.db
        .insert(workerHeartbeats)
        .values({
          workerId: ctx.workerId,
          transport: ctx.transport,
          host: hostname(),
          pid: process.pid,
          seenAt,
        })
        .onConflictDoUpdate({ target: workerHeartbeats.workerId, set: { seenAt, transport: ctx.transport } });
      return { seenAt: seenAt.toISOString() };
    },
    'alert.fanout': (payload) => fanOutAlert(deps.database, payload),
    'telemetry.ingest': (payload) => ingestPositions(deps.database, payload.positions, now()),
  } satisfies JobHandlers;
}
