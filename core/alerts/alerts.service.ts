import { customerAccountRef } from '../../shared/domain/accounts';
import { formatClock, formatMoney, plural } from '../../shared/domain/format';
import { fromCents } from '../../shared/domain/money';
import { type AlertKind, alertEventKey, type TAlert } from '../../shared/jobs';
import { trackingPath } from '../../shared/schemas/tracking';
import { accountsNotifiedOn } from '../accounts/accounts.queries';
import { backupRunError as lastBackupError } from '../backup/backup.queries';
import type { JobContext } from '../jobs/context';
import { unreconciledCounts } from '../mpesa/reconcile';
import * as q from './alerts.queries';

const TITLES: Record<AlertKind, string> = {
  'order.created': 'New order',
  'payment.submitted': 'Payment confirmation submitted',
  'duplicate.flagged': 'Duplicate entry flagged',
  'truck.idle': 'Truck idle with a load',
  'stock.low': 'Yard stock low',
  'article.published': 'Morning briefing published',
  'daily.summary': 'Daily summary',
  'payment.received': 'M-Pesa payment received',
  'mpesa.unreconciled': 'M-Pesa to reconcile',
  'fuel.anomaly': 'Fuel log to check',
  'load.outside_window': 'Load outside transport hours',
  'backup.failed': 'Backup failed',
  'accounts.overdue': 'Accounts overdue',
};

/** The line sent; when the rows are gone, the event's reference (`order.created:501` → 501) stands in. */
export function alertText(alert: TAlert, detail: string | null | undefined): string {
  return detail
    ? `${TITLES[alert.kind]}: ${detail}`
    : `${TITLES[alert.kind]} (${alertEventKey(alert).slice(alert.kind.length + 1)})`;
}

/** The line a dispatcher reads on the phone, from the rows the event is about. */
async function describe(
  ctx: Pick<JobContext, 'db'> & { settings?: Pick<JobContext['settings'], 'publicUrl'> },
  alert: TAlert,
): Promise<string | null> {
  switch (alert.kind) {
    case 'order.created':
    case 'payment.submitted': {
      const o = await q.orderForAlert(ctx.db, alert.orderId);
      if (!o) return null;
      // The customer's tracking link, for dispatch to pass on (absolute when PUBLIC_URL is set).
      const track = `${(ctx.settings?.publicUrl ?? '').replace(/\/$/, '')}${trackingPath(o.tracking_token)}`;
      const base = `order #${o.id}, ${o.trucks} × ${o.sand_type} to ${o.site}, ${formatMoney(fromCents(o.total_cents))} (${o.name}${o.phone ? `, ${o.phone}` : ''}); tracking ${track}`;
      return alert.kind === 'payment.submitted' && o.reference
        ? `${base}; ${o.method} reference ${o.reference}`
        : base;
    }
    case 'duplicate.flagged': {
      const d = await q.duplicateForAlert(ctx.db, alert.entity, alert.id);
      return d
        ? `${alert.entity === 'fuel' ? 'fuel log' : 'cost'} of ${formatMoney(fromCents(d.cents))} for ${d.plate}; review it in the audit console`
        : null;
    }
    case 'truck.idle': {
      const plate = await q.truckPlate(ctx.db, alert.truckId);
      return plate
        ? `${plate} has a load and has not moved since ${formatClock(new Date(alert.since))}`
        : null;
    }
    case 'stock.low':
      return `the yard holds ${Math.round(await q.yardTonnes(ctx.db))} t; time to restock`;
    case 'article.published':
      return (await q.articleTitle(ctx.db, alert.articleId)) ?? null;
    case 'daily.summary':
      return (await q.dailySummaryText(ctx.db, alert.day)) ?? null;
    case 'payment.received': {
      const p = await q.paymentForAlert(ctx.db, alert.paymentId);
      return p ? paymentLine(p) : null;
    }
    case 'load.outside_window': {
      const l = await q.loadForWindowAlert(ctx.db, alert.assignmentId);
      return l
        ? `load #${l.id} (${l.plate}) to ${l.site}${l.scheduledAt ? `, scheduled ${formatClock(l.scheduledAt)}` : ''}${l.overnightPour ? '; the customer asked for an overnight pour' : ''}`
        : null;
    }
    case 'fuel.anomaly': {
      const a = await q.fuelAnomalyForAlert(ctx.db, alert.anomalyId);
      return a ? `${a.plate}: ${a.detail} See Audit → Fuel findings.` : null;
    }
    case 'backup.failed': {
      const r = await lastBackupError(ctx.db, alert.runId);
      return r ? `${r}; see Admin → Backups` : null;
    }
    case 'accounts.overdue': {
      const went = await accountsNotifiedOn(ctx.db, alert.day);
      if (went.length === 0) return null;
      const list = went
        .map(
          (a) =>
            `${a.name} (${customerAccountRef(a.customerId)}) ${formatMoney(fromCents(a.overdueCents))} overdue`,
        )
        .join('; ');
      return `${plural(went.length, 'account')} went overdue: ${list}. See Finance → Receivables.`;
    }
    case 'mpesa.unreconciled': {
      const c = await unreconciledCounts(ctx.db, new Date());
      return `${plural(c.unmatched, 'unmatched payment')}, ${plural(c.prompts, 'prompt')} without a result, ${plural(c.callbacks, 'callback')} not processed; see Orders → M-Pesa`;
    }
  }
}

/** Paid in full, in part, over, or to an account number that is no order's. */
function paymentLine(p: NonNullable<Awaited<ReturnType<typeof q.paymentForAlert>>>): string {
  const amount = formatMoney(fromCents(p.amount_cents ?? 0));
  const payer = [p.payer_name, p.payer_phone].filter(Boolean).join(', ');
  const by = `${amount} by M-Pesa ${p.reference}${payer ? ` (${payer})` : ''}`;
  if (p.account_customer_id !== null) {
    const credit =
      p.unallocated_cents > 0 ? `; ${formatMoney(fromCents(p.unallocated_cents))} left as credit` : '';
    return `account ${customerAccountRef(p.account_customer_id)} paid: ${by}${credit}`;
  }
  if (p.order_id === null || p.total_cents === null)
    return `${by} to account '${p.account_ref ?? ''}' matches no order; match it in the Orders tab`;
  const credit =
    p.credit_cents > 0 ? `; ${formatMoney(fromCents(p.credit_cents))} over what was owed (credit)` : '';
  if (p.payment_status === 'CONFIRMED') return `order #${p.order_id} paid: ${by}${credit}`;
  const balance = Math.max(0, p.total_cents - p.paid_cents);
  return `order #${p.order_id} part-paid: ${by}; ${formatMoney(fromCents(p.paid_cents))} of ${formatMoney(fromCents(p.total_cents))} paid, ${formatMoney(fromCents(balance))} still owed`;
}

/**
 * One delivery row per (event, recipient) for every active ADMIN and OPS user. The unique key makes a
 * re-run job add nothing twice. Without a bot (or a chat id) rows are RECORDED; otherwise PENDING until
 * their alert.telegram job sends them (one job per delivery, its id the job id).
 */
export async function fanOutAlert(ctx: Pick<JobContext, 'db' | 'enqueue' | 'settings'>, alert: TAlert) {
  const eventKey = alertEventKey(alert);
  const recipients = await q.alertRecipients(ctx.db);
  if (recipients.length === 0) return { recipients: 0 };
  const text = alertText(alert, await describe(ctx, alert));
  const botConfigured = Boolean(ctx.settings.telegram.token);
  const withChat = new Set(botConfigured ? recipients.filter((r) => r.telegramChatId).map((r) => r.id) : []);
  await q.insertDeliveries(
    ctx.db,
    recipients.map((r) => ({
      eventKey,
      recipientId: r.id,
      chatId: r.telegramChatId,
      text,
      status: withChat.has(r.id) ? ('PENDING' as const) : ('RECORDED' as const),
    })),
  );
  if (withChat.size > 0) {
    for (const row of await q.deliveriesOf(ctx.db, eventKey)) {
      if (row.status === 'PENDING' && withChat.has(row.recipientId))
        await ctx.enqueue('alert.telegram', { deliveryId: row.id });
    }
  }
  return { recipients: recipients.length };
}
