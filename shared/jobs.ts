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
  /**
   * Jobs of this kind one worker process runs at once (WORKER_CONCURRENCY otherwise). alert.telegram runs
   * one at a time: a worker killed mid-send leaves at most one message whose sending is unknown.
   */
  concurrency?: number;
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
  /** A backup failed (issue 25): the run in backup_runs, with its error. */
  z.object({ kind: z.literal('backup.failed'), runId: id }),
  /** The daily check found accounts on terms with invoices that went past due since it last told ops. */
  z.object({ kind: z.literal('accounts.overdue'), day: z.iso.date() }),
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
    case 'accounts.overdue':
      return `${alert.kind}:${alert.day}`;
    case 'payment.received':
      return `${alert.kind}:${alert.paymentId}`;
    case 'fuel.anomaly':
      return `${alert.kind}:${alert.anomalyId}`;
    case 'load.outside_window':
      return `${alert.kind}:${alert.assignmentId}`;
    case 'backup.failed':
      return `${alert.kind}:${alert.runId}`;
  }
}

/** What a customer is told about their order (issue 29), and when it happened. */
export const CUSTOMER_NEWS = [
  'order.placed',
  'payment.received',
  'load.scheduled',
  'load.left_yard',
  'load.arrived',
  'load.delivered',
] as const;
export type CustomerNewsEvent = (typeof CUSTOMER_NEWS)[number];
export const ZCustomerNews = z.object({
  event: z.enum(CUSTOMER_NEWS),
  orderId: id,
  /** The load the news is about (load.*). */
  loadId: id.optional(),
  /** The payment (payment.received). */
  paymentId: id.optional(),
});
export type TCustomerNews = z.infer<typeof ZCustomerNews>;
/** One key per piece of news: told once however often it is raised. */
export const newsKey = (p: TCustomerNews) =>
  `${p.event}:${p.orderId}${p.loadId ? `:L${p.loadId}` : ''}${p.paymentId ? `:P${p.paymentId}` : ''}`;

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
    options: { attempts: 8, backoffMs: 3000, concurrency: 1 },
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
  /** 08:00 Nairobi: tells ops (Telegram, through the alerts) which accounts on terms went overdue. */
  'accounts.overdue': defineJob({
    payload: z.object({ scheduledFor: z.string().optional() }),
    options: { attempts: 3, backoffMs: 5000, cron: '0 8 * * *', timeZone: BUSINESS_TIME_ZONE },
  }),
  /**
   * 03:30 Nairobi: deletes stored `Idempotency-Key` answers older than IDEMPOTENCY_RETENTION_DAYS, so the
   * table does not grow for ever; younger keys keep answering a phone's replay with the first result.
   */
  'idempotency.expire': defineJob({
    payload: z.object({ scheduledFor: z.string().optional() }),
    options: { attempts: 3, backoffMs: 60_000, cron: '30 3 * * *', timeZone: BUSINESS_TIME_ZONE },
  }),
  /**
   * A forgotten password's e-mail (issue 25): the job makes the one-time token and sends the link through
   * SMTP; the payload names the reset row, never the token.
   */
  'mail.passwordReset': defineJob({
    payload: z.object({ resetId: z.number().int().positive() }),
    options: { attempts: 5, backoffMs: 15_000 },
  }),
  /** A forgotten password's one-time code by SMS (Africa's Talking); the payload names the row, never the code. */
  'sms.passwordReset': defineJob({
    payload: z.object({ resetId: z.number().int().positive() }),
    options: { attempts: 5, backoffMs: 15_000 },
  }),
  /** 03:45 Nairobi: deletes action log entries older than ACTIVITY_RETENTION_DAYS (two years by default). */
  'activity.expire': defineJob({
    payload: z.object({ scheduledFor: z.string().optional() }),
    options: { attempts: 3, backoffMs: 60_000, cron: '45 3 * * *', timeZone: BUSINESS_TIME_ZONE },
  }),
  /**
   * 03:45 Nairobi: makes the truck_positions partitions of this month and the next two, and drops whole
   * months older than POSITION_RETENTION_DAYS (the rollups are already exact; core/telemetry/positions.ts).
   */
  'positions.maintain': defineJob({
    payload: z.object({ scheduledFor: z.string().optional() }),
    options: { attempts: 3, backoffMs: 60_000, cron: '45 3 * * *', timeZone: BUSINESS_TIME_ZONE },
  }),
  /**
   * KRA eTIMS delivery for a branch (issue 23): initialises the device once, refreshes KRA's code lists
   * monthly, registers the items, then sends the unsigned sales and credit notes in invoice-number order
   * (asking KRA about one whose answer was lost before sending it again) and the stock movements after
   * them. KRA being away never fails the job: the branch records it and backs off (at most 2 minutes
   * apart, through outages of days), re-queuing itself; `etims.sweep` is the net under that.
   */
  'etims.send': defineJob({
    payload: z.object({
      branchId: z.string().min(1).max(100),
      invoiceId: z.number().int().positive().optional(),
      /** When it was asked for: each issue and each "send again" is its own run. */
      at: z.iso.datetime().optional(),
    }),
    options: { attempts: 3, backoffMs: 5000 },
    dedupeId: (p) => `etims.send:${p.branchId}:${p.invoiceId ?? ''}@${p.at ?? ''}`,
  }),
  /**
   * Every 15 minutes: a backup when BACKUP_CRON's latest slot (Africa/Nairobi) has passed with none since
   * (issue 25); one missed while everything was off is made up at the next start.
   */
  'backup.scheduled': defineJob({
    payload: z.object({ scheduledFor: z.string().optional() }),
    options: { attempts: 1, backoffMs: 60_000, cron: '*/15 * * * *', timeZone: BUSINESS_TIME_ZONE },
  }),
  /**
   * Every minute: the eTIMS delivery of the active branch once its back-off is over (attempts at most 2
   * minutes apart while KRA is away; what waits goes within about 2 minutes of KRA answering again).
   */
  'etims.sweep': defineJob({
    payload: z.object({ scheduledFor: z.string().optional() }),
    options: { attempts: 1, backoffMs: 5000, cron: '* * * * *', timeZone: BUSINESS_TIME_ZONE },
  }),
  /**
   * A stored callback of a customer rail (issue 29), read after it was answered: Meta's webhook (customers'
   * messages, once each by message id, and reports on ours) or Africa's Talking's delivery report or
   * incoming SMS (STOP).
   */
  'messaging.inbound': defineJob({
    payload: z.object({ callbackId: z.number().int().positive() }),
    options: { attempts: 6, backoffMs: 1000 },
    dedupeId: (p) => `messaging.inbound:${p.callbackId}`,
  }),
  /**
   * Sends one written message (WhatsApp or SMS) once. A refusal is recorded with the rail's code and never
   * sent again (a WhatsApp one falls back to SMS); a rail that is away is tried 5 times, then recorded.
   */
  'messaging.send': defineJob({
    payload: z.object({ messageId: z.number().int().positive() }),
    options: { attempts: 5, backoffMs: 5000 },
    dedupeId: (p) => `messaging.send:${p.messageId}`,
  }),
  /** The M-Pesa prompt a WhatsApp conversation asked for (its order's balance to the conversation's phone). */
  'messaging.stk': defineJob({
    payload: z.object({ orderId: id, conversationId: id, at: z.iso.datetime() }),
    // Daraja's refusals are told to the customer; one attempt, never a second prompt by retry.
    options: { attempts: 1, backoffMs: 1000 },
    dedupeId: (p) => `messaging.stk:${p.orderId}@${p.at}`,
  }),
  /** The customer's news about their order, by WhatsApp (free-form in the 24-hour window, else a template) or SMS. */
  'customer.notify': defineJob({
    payload: ZCustomerNews,
    options: { attempts: 5, backoffMs: 2000 },
    dedupeId: (p) => `customer.notify:${newsKey(p)}`,
  }),
} as const;

export type JobName = keyof typeof JOBS;
export const JOB_NAMES = Object.keys(JOBS) as JobName[];
/** The jobs that run on a schedule (cron in the business time zone). */
export const CRON_JOB_NAMES = JOB_NAMES.filter((n) => (JOBS[n].options as JobOptions).cron);
/** A scheduled job's scheduler id on its BullMQ queue (one per job). */
export const schedulerIdFor = (name: JobName) => `${name}:cron`;
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
  /**
   * The scheduled jobs whose schedule is not registered on the transport (Redis came back empty). The
   * in-process runner keeps its schedules in memory: none missing.
   */
  missingSchedules?(): Promise<JobName[]>;
  /** Jobs per name and state, for /metrics (BullMQ's counts; the in-process runner's table and slots). */
  counts?(): Promise<JobCount[]>;
  close(): Promise<void>;
}

export const JOB_COUNT_STATES = ['waiting', 'active', 'delayed', 'completed', 'failed'] as const;
export interface JobCount {
  name: string;
  state: (typeof JOB_COUNT_STATES)[number];
  count: number;
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
