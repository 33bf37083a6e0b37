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
  /**
   * Completed jobs kept on the queue (with their payloads) for the dashboard; default 1000 for a day.
   * 0 for bulky, frequent jobs (telemetry batches): a completed one is removed at once.
   */
  keepCompleted?: number;
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

/**
 * Business events that fan out to the ADMIN and OPS users' Telegram chats (one message per recipient),
 * typed per kind: the payload names the rows the alert is about.
 */
const id = z.number().int().positive();
export const ZAlert = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('order.created'), orderId: id }),
  z.object({ kind: z.literal('payment.submitted'), orderId: id }),
  z.object({ kind: z.literal('duplicate.flagged'), entity: z.enum(['cost', 'fuel']), id }),
  z.object({ kind: z.literal('truck.idle'), truckId: z.string().min(1).max(100), since: z.iso.datetime() }),
  z.object({ kind: z.literal('stock.low'), day: z.iso.date() }),
  z.object({ kind: z.literal('article.published'), articleId: id }),
  /** The internal daily summary of a Nairobi day (staff only; its text is in daily_summaries). */
  z.object({ kind: z.literal('daily.summary'), day: z.iso.date() }),
  /** An M-Pesa payment arrived: paid in full, in part, over, or to an account number that is no order's. */
  z.object({ kind: z.literal('payment.received'), paymentId: id }),
  /** The morning check found M-Pesa payments or prompts still unreconciled (the ops view lists them). */
  z.object({ kind: z.literal('mpesa.unreconciled'), day: z.iso.date() }),
  /** A fuel log looks wrong (fuel_anomalies): one alert per finding. */
  z.object({ kind: z.literal('fuel.anomaly'), anomalyId: id }),
  /** A load scheduled or moving outside the transport window (flagged, not refused). */
  z.object({ kind: z.literal('load.outside_window'), assignmentId: id }),
]);
export type TAlert = z.infer<typeof ZAlert>;
export type AlertKind = TAlert['kind'];
export const ALERT_KINDS = ZAlert.options.map((o) => o.shape.kind.value) as AlertKind[];

/** One key per event: the same event raised twice (a re-run, a retried request) is delivered once. */
export function alertEventKey(alert: TAlert): string {
  switch (alert.kind) {
    case 'order.created':
    case 'payment.submitted':
      return `${alert.kind}:${alert.orderId}`;
    case 'duplicate.flagged':
      return `${alert.kind}:${alert.entity}:${alert.id}`;
    case 'truck.idle':
      return `${alert.kind}:${alert.truckId}@${alert.since}`;
    case 'stock.low':
      return `${alert.kind}:yard@${alert.day}`;
    case 'article.published':
      return `${alert.kind}:${alert.articleId}`;
    case 'daily.summary':
    case 'mpesa.unreconciled':
      return `${alert.kind}:${alert.day}`;
    case 'payment.received':
      return `${alert.kind}:${alert.paymentId}`;
    case 'fuel.anomaly':
      return `${alert.kind}:${alert.anomalyId}`;
    case 'load.outside_window':
      return `${alert.kind}:${alert.assignmentId}`;
  }
}

export const JOBS = {
  /** Records that a job runner is alive; /api/health reads it to tell a consuming worker from a dead one. */
  'system.heartbeat': defineJob({
    payload: z.object({ scheduledFor: z.string().optional() }),
    options: { attempts: 1, backoffMs: 1000, cron: '* * * * *', timeZone: BUSINESS_TIME_ZONE },
  }),
  /** Fans one business event out to its recipients (written to the outbox with the change it reports). */
  'alert.fanout': defineJob({
    payload: ZAlert,
    options: { attempts: 5, backoffMs: 2000 },
    dedupeId: (p) => `alert.fanout:${alertEventKey(p)}`,
  }),
  /**
   * A batch of acknowledged tracker reports: fixes go to the position history (once per device and fix
   * time; a row the database refuses goes to telemetry_quarantine, never takes the batch with it) and
   * the latest position; heartbeats update battery and last-seen; discards are counted per device.
   * `heartbeats`, `discards` and `receivedAt` are optional so batches queued by an older server still run.
   */
  'telemetry.ingest': defineJob({
    payload: z.object({
      /** When the server took these reports: the devices' last-seen time. */
      receivedAt: z.iso.datetime().optional(),
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
        .max(5000),
      heartbeats: z
        .array(z.object({ deviceId: z.string(), truckId: z.string(), battery: z.number().nullable() }))
        .max(5000)
        .optional(),
      discards: z
        .array(
          z.object({
            deviceId: z.string(),
            reason: z.string(),
            count: z.number().int().positive(),
            sample: z.string(),
          }),
        )
        .max(5000)
        .optional(),
    }),
    // Batches carry up to thousands of fixes: once written, nothing of them stays in Redis.
    options: { attempts: 8, backoffMs: 500, keepCompleted: 0 },
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
  /**
   * One stored M-Pesa callback (or status-query answer) read after it was answered: the payment it carries
   * is recorded once (by receipt / CheckoutRequestID) and settles its order when the account is one.
   */
  'mpesa.process': defineJob({
    payload: z.object({ callbackId: z.number().int().positive() }),
    options: { attempts: 6, backoffMs: 1000 },
    dedupeId: (p) => `mpesa.process:${p.callbackId}`,
  }),
  /** A payment ops matched to an order by hand settles it (the same rule as a callback). */
  'mpesa.settle': defineJob({
    payload: z.object({ paymentId: z.number().int().positive(), matchedAt: z.iso.datetime() }),
    options: { attempts: 6, backoffMs: 1000 },
    dedupeId: (p) => `mpesa.settle:${p.paymentId}@${p.matchedAt}`,
  }),
  /**
   * Nothing left hanging: asks Daraja about STK prompts with no callback after 10 minutes, and processes
   * stored callbacks whose job never finished.
   */
  'mpesa.reconcile': defineJob({
    payload: z.object({ scheduledFor: z.string().optional() }),
    options: { attempts: 1, backoffMs: 5000, cron: '*/5 * * * *', timeZone: BUSINESS_TIME_ZONE },
  }),
  /** 07:00 Nairobi: an alert when anything M-Pesa is still unreconciled (the ops view lists it). */
  'mpesa.morning': defineJob({
    payload: z.object({ scheduledFor: z.string().optional() }),
    options: { attempts: 3, backoffMs: 5000, cron: '0 7 * * *', timeZone: BUSINESS_TIME_ZONE },
  }),
  /**
   * 03:30 Nairobi: deletes stored `Idempotency-Key` answers older than IDEMPOTENCY_RETENTION_DAYS, so the
   * table does not grow for ever; younger keys keep answering a phone's replay with the first result.
   */
  'idempotency.expire': defineJob({
    payload: z.object({ scheduledFor: z.string().optional() }),
    options: { attempts: 3, backoffMs: 60_000, cron: '30 3 * * *', timeZone: BUSINESS_TIME_ZONE },
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

/** Queues a job on whichever transport runs; the same signature in handlers, the relay and tests. */
export type Enqueue = <N extends JobName>(
  name: N,
  payload: JobPayload<N>,
  options?: EnqueueOptions,
) => Promise<{ id: string }>;

/** The job id a payload is enqueued with when no id is given (its definition's dedupe id, if any). */
export function dedupeIdFor<N extends JobName>(name: N, payload: JobPayload<N>): string | undefined {
  const def = JOBS[name] as { dedupeId?: (p: JobPayload<N>) => string };
  return def.dedupeId?.(payload);
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
  const { attempts, backoffMs, keepCompleted = 1000 } = JOBS[name].options;
  return {
    attempts,
    backoff: { type: 'exponential' as const, delay: backoffMs },
    // BullMQ keys are ':'-separated, so a custom id may not contain one.
    ...(jobId ? { jobId: jobId.replace(/:/g, '|') } : {}),
    ...(delayMs ? { delay: delayMs } : {}),
    // Completed jobs are trimmed; failed ones stay a week for inspection on the queue dashboard.
    removeOnComplete: keepCompleted === 0 ? true : { age: 24 * 3600, count: keepCompleted },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}
