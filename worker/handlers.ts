import { hostname } from 'node:os';
import type { Database } from '../drizzle/db';
import { workerHeartbeats } from '../drizzle/schema';
import type { Llm } from '../shared/ai/llm';
import { createLlm } from '../shared/ai/llm';
import type { JobName, JobPayload } from '../shared/jobs';
import { type EmitAlert, fanOutAlert } from './jobs/alert-fanout';
import { type Enqueue, sendTelegramAlert, type TelegramConfig, telegramConfig } from './jobs/alert-telegram';
import { generateInsights } from './jobs/insights';
import { writeMorningBriefing } from './jobs/morning-briefing';
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
  /** The LLM client; default from OPENAI_* (null when unset). */
  llm?: Llm | null;
  /** Lets a job queue follow-up jobs (alerts); without it alerts are fanned out in the same job. */
  enqueue?: Enqueue;
  telegram?: TelegramConfig;
}

export function workerIdentity(): string {
  return `${hostname()}:${process.pid}`;
}

/** Maps every declared job to exactly one handler; a job added to shared/jobs.ts without one fails to compile. */
export function createHandlers(deps: HandlerDeps): JobHandlers {
  const now = deps.now ?? (() => new Date());
  const llm = deps.llm === undefined ? createLlm() : deps.llm;
  const telegram = deps.telegram ?? telegramConfig();
  const enqueue = deps.enqueue;
  const emit: EmitAlert = (kind, refId) =>
    enqueue ? enqueue('alert.fanout', { kind, refId }) : fanOutAlert(deps.database, { kind, refId });
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
    'alert.fanout': (payload) =>
      fanOutAlert(
        deps.database,
        payload,
        enqueue ? { enqueue, botConfigured: Boolean(telegram.token) } : undefined,
      ),
    'alert.telegram': (payload) =>
      sendTelegramAlert(deps.database, telegram, payload.deliveryId, enqueue ?? (async () => undefined)),
    'telemetry.ingest': (payload) => ingestPositions(deps.database, payload.positions, now(), emit),
    'insights.generate': () => generateInsights(deps.database, now(), llm),
    'article.morning': (payload) => writeMorningBriefing(deps.database, now(), llm, payload.forDate, emit),
  } satisfies JobHandlers;
}
