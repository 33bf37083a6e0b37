import type { JobHandlers } from './context';
import { fanOutAlert } from './jobs/alert-fanout';
import { sendTelegramAlert } from './jobs/alert-telegram';
import { recordHeartbeat } from './jobs/heartbeat';
import { expireIdempotencyKeys } from './jobs/idempotency-expire';
import { generateInsights } from './jobs/insights';
import { writeMorningBriefing } from './jobs/morning-briefing';
import { processCallback, settleMatchedPayment } from './jobs/mpesa-process';
import { morningMpesaCheck, reconcileMpesa } from './jobs/mpesa-reconcile';
import { ingestBatch } from './jobs/telemetry-ingest';

export type { JobContext, JobHandler, JobHandlers } from './context';

/** Maps every declared job to exactly one handler; a job added to shared/jobs.ts without one fails to compile. */
export const handlers: JobHandlers = {
  'system.heartbeat': (_payload, ctx) => recordHeartbeat(ctx),
  'alert.fanout': (payload, ctx) => fanOutAlert(ctx, payload),
  'alert.telegram': (payload, ctx) => sendTelegramAlert(ctx, payload.deliveryId),
  'telemetry.ingest': (payload, ctx) => ingestBatch(ctx, payload),
  'insights.generate': (_payload, ctx) => generateInsights(ctx),
  'article.morning': (payload, ctx) => writeMorningBriefing(ctx, payload.forDate),
  'mpesa.process': (payload, ctx) => processCallback(ctx, payload.callbackId),
  'mpesa.settle': (payload, ctx) => settleMatchedPayment(ctx, payload.paymentId),
  'mpesa.reconcile': (_payload, ctx) => reconcileMpesa(ctx),
  'mpesa.morning': (_payload, ctx) => morningMpesaCheck(ctx),
  'idempotency.expire': (_payload, ctx) => expireIdempotencyKeys(ctx),
};
