import { overdueReminder } from '../core/accounts/reminders';
import { expireActivity } from '../core/activity/activity.service';
import { fanOutAlert } from '../core/alerts/alerts.service';
import { sendTelegramAlert } from '../core/alerts/telegram';
import { writeMorningBriefing } from '../core/articles/morning-briefing';
import { sendPasswordResetMail, sendPasswordResetSms } from '../core/auth/password-reset';
import { backupIfDue } from '../core/backup/backup.service';
import { runEtimsQueue } from '../core/etims/etims.service';
import { expireIdempotencyKeys } from '../core/idempotency/expire';
import { generateInsights } from '../core/insights/generate';
import type { JobHandlers } from '../core/jobs/context';
import { promptPayment } from '../core/messaging/conversation';
import { notifyCustomer, processInbound, sendMessage } from '../core/messaging/messaging.service';
import { processCallback } from '../core/mpesa/callbacks';
import { morningMpesaCheck, reconcileMpesa } from '../core/mpesa/reconcile';
import { settleMatchedPayment } from '../core/payments/settlement';
import { recordHeartbeat } from '../core/system/heartbeat';
import { ingestBatch } from '../core/telemetry/ingest';
import { maintainPositions } from '../core/telemetry/positions';

export type { JobContext, JobHandler, JobHandlers } from '../core/jobs/context';

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
  'accounts.overdue': (_payload, ctx) => overdueReminder(ctx),
  'idempotency.expire': (_payload, ctx) => expireIdempotencyKeys(ctx),
  'positions.maintain': (_payload, ctx) => maintainPositions(ctx),
  'activity.expire': (_payload, ctx) => expireActivity(ctx),
  'mail.passwordReset': (payload, ctx) => sendPasswordResetMail(ctx, payload.resetId),
  'sms.passwordReset': (payload, ctx) => sendPasswordResetSms(ctx, payload.resetId),
  'etims.send': (_payload, ctx) => runEtimsQueue(ctx),
  'etims.sweep': (_payload, ctx) => runEtimsQueue(ctx),
  'backup.scheduled': (_payload, ctx) =>
    backupIfDue({ database: ctx.database, settings: ctx.settings, log: ctx.log }, ctx.now()),
  'messaging.inbound': (payload, ctx) => processInbound(ctx, payload.callbackId),
  'messaging.send': (payload, ctx) => sendMessage(ctx, payload.messageId),
  'messaging.stk': (payload, ctx) => promptPayment(ctx, payload),
  'customer.notify': (payload, ctx) => notifyCustomer(ctx, payload),
};
