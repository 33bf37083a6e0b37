import { z } from 'zod';
import { BUSINESS_TIME_ZONE } from './constants';

/**
 * Every background job, declared once. The server produces them, `worker/` consumes them (BullMQ with
 * REDIS_URL, the in-process runner otherwise). Payloads carry ids, never secrets; handlers are idempotent
 * because a killed worker's job runs again.
 */
export interface JobOptions {
  attempts: number;
  backoffMs: number;
  /** Cron pattern evaluated in the business time zone; the job is scheduled with an empty payload. */
  cron?: string;
  timeZone?: string;
}

export interface JobDefinition<P extends z.ZodType = z.ZodType> {
  payload: P;
  options: JobOptions;
  /** A stable id for a payload, so enqueueing the same work twice runs it once. */
  dedupeId?: (payload: z.infer<P>) => string;
}

function defineJob<P extends z.ZodType>(def: JobDefinition<P>): JobDefinition<P> {
  return def;
}

/** Business events that fan out to the ADMIN and OPS users' Telegram chats (one message per recipient). */
export const ALERT_KINDS = [
  'order.created',
  'payment.submitted',
  'duplicate.flagged',
  'truck.idle',
  'stock.low',
  'article.published',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const JOBS = {
  /** Records that a job runner is alive; /api/health reads it to tell a consuming worker from a dead one. */
  'system.heartbeat': defineJob({
    payload: z.object({ scheduledFor: z.string().optional() }),
    options: { attempts: 1, backoffMs: 1000, cron: '* * * * *', timeZone: BUSINESS_TIME_ZONE },
  }),
  /** Fans one business event out to its recipients; `refId` names the row (order id, cost id, …). */
  'alert.fanout': defineJob({
    payload: z.object({ kind: z.enum(ALERT_KINDS), refId: z.string().min(1).max(200) }),
    options: { attempts: 5, backoffMs: 2000 },
    dedupeId: (p) => `alert.fanout:${p.kind}:${p.refId}`,
  }),
  /** A batch of accepted fixes: written to the position history (once per device and fix time) and the latest position. */
  'telemetry.ingest': defineJob({
    payload: z.object({
      positions: z
        .array(
          z.object({
            deviceId: z.string(),
            truckId: z.string(),
            lat: z.number(),
            lng: z.number(),
            fixTime: z.string(),
            speedKmh: z.number().nullable(),
            heading: z.number().nullable(),
            altitude: z.number().nullable(),
            accuracy: z.number().nullable(),
            battery: z.number().nullable(),
            attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
          }),
        )
        .min(1)
        .max(5000),
    }),
    options: { attempts: 8, backoffMs: 500 },
  }),
  /** Sends one recorded alert to its recipient's Telegram chat; Telegram's 429 delays it, never fails it. */
  'alert.telegram': defineJob({
    payload: z.object({ deliveryId: z.number().int().positive() }),
    options: { attempts: 8, backoffMs: 3000 },
    dedupeId: (p) => `alert.telegram:${p.deliveryId}`,
  }),
  /** Recomputes the AI tab's insights and alerts from the last days' data (LLM wording when configured). */
  'insights.generate': defineJob({
    payload: z.object({ requestedBy: z.number().int().optional(), scheduledFor: z.string().optional() }),
    options: { attempts: 3, backoffMs: 2000, cron: '*/30 * * * *', timeZone: BUSINESS_TIME_ZONE },
  }),
  /** The morning briefing: one article a day from yesterday's operations, at 06:00 Nairobi time. */
  'article.morning': defineJob({
    payload: z.object({ scheduledFor: z.string().optional(), forDate: z.string().optional() }),
    options: { attempts: 3, backoffMs: 5000, cron: '0 6 * * *', timeZone: BUSINESS_TIME_ZONE },
  }),
} as const;

export type JobName = keyof typeof JOBS;
export const JOB_NAMES = Object.keys(JOBS) as JobName[];
export type JobPayload<N extends JobName> = z.infer<(typeof JOBS)[N]['payload']>;

/** BullMQ queue names cannot contain ':'; one queue per job keeps retries and dashboards per job. */
export function queueNameFor(name: string): string {
  return `mchanga-${name.replace(/[^a-z0-9.-]/gi, '-')}`;
}

export interface EnqueueOptions {
  /** Overrides the definition's dedupe id: a second job with the same id is not run again. */
  jobId?: string;
  delayMs?: number;
}

/** What the server sees of the job transport, whichever one runs. */
export interface JobQueue {
  readonly transport: 'bullmq' | 'in-process';
  enqueue<N extends JobName>(
    name: N,
    payload: JobPayload<N>,
    options?: EnqueueOptions,
  ): Promise<{ id: string }>;
  health(): Promise<{ ok: boolean; detail?: string }>;
  close(): Promise<void>;
}

export class JobTransportUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('The job queue is not reachable right now. Please try again shortly.', { cause });
    this.name = 'JobTransportUnavailableError';
  }
}

/** BullMQ add() options for a job (plain data, so shared/ stays free of the queue library). */
export function queueJobOptions(name: JobName, jobId?: string, delayMs?: number) {
  const { attempts, backoffMs } = JOBS[name].options;
  return {
    attempts,
    backoff: { type: 'exponential' as const, delay: backoffMs },
    // BullMQ keys are ':'-separated, so a custom id may not contain one.
    ...(jobId ? { jobId: jobId.replace(/:/g, '|') } : {}),
    ...(delayMs ? { delay: delayMs } : {}),
    // Completed jobs are trimmed; failed ones stay a week for inspection on the queue dashboard.
    removeOnComplete: { age: 24 * 3600, count: 1000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}
