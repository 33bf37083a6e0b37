import type { DbOrTx } from '../../drizzle/db';
import { writeOutbox } from '../../drizzle/outbox';
import {
  type NewsFacts,
  newsSms,
  newsTemplate,
  newsText,
  templateParameters,
} from '../../shared/domain/customer-news';
import { fromCents } from '../../shared/domain/money';
import { normaliseMsisdn } from '../../shared/domain/mpesa';
import { balanceCents } from '../../shared/domain/payments';
import type { InboundSource } from '../../shared/enums';
import { JOBS, newsKey, type TCustomerNews } from '../../shared/jobs';
import type { Settings } from '../../shared/settings';
import { smsOn, whatsappOn } from '../../shared/settings';
import {
  AT_ACCEPTED,
  AT_FAILED_STATUSES,
  AT_RETRYABLE,
  AtClient,
  AtError,
  atConfigOf,
  parseDeliveryReport,
  parseIncoming,
} from '../../shared/sms/africastalking';
import { GraphClient, GraphError, graphConfigOf } from '../../shared/whatsapp/graph';
import { parseWebhook, type StatusUpdate } from '../../shared/whatsapp/webhook';
import type { JobContext } from '../jobs/context';
import * as pq from '../payments/payments.queries';
import { respond } from './conversation';
import * as q from './messaging.queries';
import { fallBackToSms, inWindow, type OutgoingPayload, queueMessage } from './outgoing';

/** A send claimed this long ago was by a runner that died: it is sent again. */
export const SENDING_STALE_MS = 60_000;
/** WhatsApp said the number cannot get WhatsApp (131026) this recently: news goes by SMS straight away. */
const NO_WHATSAPP_MS = 30 * 24 * 3600_000;
/** Meta's codes meaning this number is not reachable on WhatsApp. */
const NOT_ON_WHATSAPP = new Set(['131026', '133010']);

// ---- inbound ------------------------------------------------------------------------------------------

/** Stores a callback as it came, with its processing job, in one transaction (answered right after). */
export function storeInbound(
  db: DbOrTx,
  values: { source: InboundSource; body: string; sourceIp: string; receivedAt: Date },
): Promise<number> {
  return db.transaction(async (tx) => {
    const id = await q.insertInbound(tx, values);
    await writeOutbox(tx, 'messaging.inbound', { callbackId: id });
    return id;
  });
}

/** `messaging.inbound`: one stored callback, processed once (a re-run finds it processed). */
export async function processInbound(
  ctx: Pick<JobContext, 'db' | 'settings' | 'now' | 'log'> & Partial<Pick<JobContext, 'attempt'>>,
  id: number,
) {
  // The last try takes what it can: a report still naming no message of ours is let go.
  const lastTry = (ctx.attempt ?? 1) >= JOBS['messaging.inbound'].options.attempts;
  return ctx.db.transaction(async (tx) => {
    const cb = await q.lockInbound(tx, id);
    if (!cb || cb.processedAt) return { processed: false };
    let body: unknown;
    try {
      body =
        cb.source === 'WHATSAPP' ? JSON.parse(cb.body) : Object.fromEntries(new URLSearchParams(cb.body));
    } catch {
      await q.markInbound(tx, id, ctx.now(), 'not JSON');
      return { processed: false };
    }
    if (cb.source === 'WHATSAPP') await whatsappEvents(tx, ctx, body, lastTry ? null : cb.receivedAt);
    else if (cb.source === 'SMS_DELIVERY') await smsDelivery(tx, ctx, body as Record<string, unknown>);
    else await smsIncoming(tx, ctx, body as Record<string, unknown>);
    await q.markInbound(tx, id, ctx.now());
    return { processed: true };
  });
}

/**
 * A report can overtake our own record of the send (Meta posts it as soon as it answered us): a report on
 * a message id we do not know yet is tried again this long after it arrived, then let go (not ours).
 */
export const STATUS_WAIT_MS = 2 * 60_000;

export class StatusBeforeSendError extends Error {
  constructor(messageId: string) {
    super(`A WhatsApp status for ${messageId} came before its send was recorded; processed again shortly`);
    this.name = 'StatusBeforeSendError';
  }
}

async function whatsappEvents(
  tx: DbOrTx,
  ctx: Pick<JobContext, 'settings' | 'now' | 'log'>,
  body: unknown,
  /** When the webhook arrived; null on the last try (nothing waits then). */
  receivedAt: Date | null,
) {
  const events = parseWebhook(body);
  const own = ctx.settings.whatsapp.phoneNumberId;
  // A webhook for another number of the same app is not ours to answer.
  if (own && events.phoneNumberId && events.phoneNumberId !== own) return;
  for (const status of events.statuses)
    if (
      !(await whatsappStatus(tx, status)) &&
      receivedAt &&
      ctx.now().getTime() - receivedAt.getTime() < STATUS_WAIT_MS
    )
      throw new StatusBeforeSendError(status.messageId);
  for (const m of events.messages) {
    const phone = normaliseMsisdn(m.from) ?? m.from;
    const conv = await q.conversationFor(tx, phone, { profileName: m.profileName });
    const recorded = await q.insertInboundMessage(tx, {
      conversationId: conv.id,
      orderId: conv.orderId,
      direction: 'IN',
      channel: 'WHATSAPP',
      text: m.kind === 'other' ? `[${m.type}]` : m.text,
      payload: { kind: m.kind, replyId: m.replyId, location: m.location, type: m.type },
      status: 'RECEIVED',
      providerId: m.id,
      createdAt: ctx.now(),
      updatedAt: ctx.now(),
    });
    // A replay (Meta retries and reorders) was answered the first time.
    if (!recorded) continue;
    const at = Number.isNaN(m.at.getTime()) ? ctx.now() : m.at;
    const last = conv.lastInboundAt && conv.lastInboundAt > at ? conv.lastInboundAt : at;
    const updated = await q.updateConversation(tx, conv.id, {
      lastInboundAt: last,
      profileName: m.profileName ?? conv.profileName,
    });
    await respond(tx, ctx, updated, m);
  }
}

const STATUS_RANK = { SENT: 1, DELIVERED: 2, READ: 3 } as const;

/** Applies a report to the message it names; false when no message has that id (yet). */
async function whatsappStatus(tx: DbOrTx, s: StatusUpdate): Promise<boolean> {
  const msg = await q.messageByProviderId(tx, 'WHATSAPP', s.messageId);
  if (!msg) return false;
  if (msg.direction !== 'OUT') return true;
  if (s.status === 'failed') {
    if (msg.status === 'FAILED') return true;
    await q.updateMessage(tx, msg.id, {
      status: 'FAILED',
      errorCode: s.errorCode === null ? null : String(s.errorCode),
      error: s.errorTitle,
    });
    await fallBackToSms(tx, msg);
    return true;
  }
  const to = s.status === 'delivered' ? 'DELIVERED' : s.status === 'read' ? 'READ' : 'SENT';
  const from = msg.status as keyof typeof STATUS_RANK;
  // Reports come out of order: a message read is not made "delivered" again.
  if (msg.status === 'FAILED' || (STATUS_RANK[from] ?? 0) >= STATUS_RANK[to]) return true;
  await q.updateMessage(tx, msg.id, { status: to });
  return true;
}

async function smsDelivery(tx: DbOrTx, ctx: Pick<JobContext, 'now'>, fields: Record<string, unknown>) {
  const report = parseDeliveryReport(fields);
  if (!report) return;
  const msg = await q.messageByProviderId(tx, 'SMS', report.id);
  if (!msg) return;
  if (report.status === 'Success') {
    if (msg.status === 'SENT') await q.updateMessage(tx, msg.id, { status: 'DELIVERED' });
    return;
  }
  if (!AT_FAILED_STATUSES.has(report.status)) return;
  await q.updateMessage(tx, msg.id, {
    status: 'FAILED',
    errorCode: report.status,
    error: report.failureReason,
  });
  // The subscriber blacklisted the sender: no more SMS to them.
  if (report.failureReason === 'UserInBlackList')
    await q.updateConversation(tx, msg.conversationId, { smsOptOutAt: ctx.now() });
}

async function smsIncoming(
  tx: DbOrTx,
  ctx: Pick<JobContext, 'settings' | 'now' | 'log'>,
  fields: Record<string, unknown>,
) {
  const m = parseIncoming(fields);
  if (!m) return;
  const phone = normaliseMsisdn(m.from) ?? m.from.replace(/\D/g, '');
  const conv = await q.conversationFor(tx, phone);
  const recorded = await q.insertInboundMessage(tx, {
    conversationId: conv.id,
    orderId: conv.orderId,
    direction: 'IN',
    channel: 'SMS',
    text: m.text,
    status: 'RECEIVED',
    providerId: m.id,
    createdAt: ctx.now(),
    updatedAt: ctx.now(),
  });
  if (!recorded) return;
  await respond(tx, ctx, conv, null, m.text);
}

// ---- outgoing -----------------------------------------------------------------------------------------

const lastAttempt = (ctx: Pick<JobContext, 'attempt'>) =>
  ctx.attempt >= JOBS['messaging.send'].options.attempts;

/**
 * `messaging.send`: sends one message once. Claimed (SENDING) before the request and marked SENT with the
 * rail's id after, so a re-run sends nothing again. A refusal is recorded with the rail's code (Meta's
 * 131047, Africa's Talking's 406 …) and not retried; a WhatsApp refusal hands the news to SMS. A rail that
 * is away is tried again by the job's attempts, then recorded FAILED the same way.
 */
export async function sendMessage(
  ctx: Pick<JobContext, 'db' | 'settings' | 'attempt' | 'log'>,
  messageId: number,
  options: { staleAfterMs?: number } = {},
) {
  const claimed = await q.claimMessage(ctx.db, messageId, options.staleAfterMs ?? SENDING_STALE_MS);
  if (!claimed) return { sent: false };
  const conv = (await q.findConversation(ctx.db, claimed.conversationId))!;
  const payload = (claimed.payload ?? {}) as OutgoingPayload;
  const skip = (error: string) =>
    ctx.db.transaction(async (tx) => {
      await q.updateMessage(tx, messageId, { status: 'SKIPPED', error, sendingAt: null });
      if (claimed.channel === 'WHATSAPP') await fallBackToSms(tx, claimed);
      return { sent: false, skipped: error };
    });
  const refuse = (code: string | null, error: string) =>
    ctx.db.transaction(async (tx) => {
      const row = await q.updateMessage(tx, messageId, {
        status: 'FAILED',
        errorCode: code,
        error: error.slice(0, 500),
        sendingAt: null,
      });
      if (claimed.channel === 'WHATSAPP') await fallBackToSms(tx, row);
      if (claimed.channel === 'SMS' && code === '406')
        await q.updateConversation(tx, conv.id, { smsOptOutAt: new Date() });
      return { sent: false, failed: code };
    });
  const retry = async (err: Error) => {
    await q.updateMessage(ctx.db, messageId, {
      status: 'PENDING',
      sendingAt: null,
      error: err.message.slice(0, 500),
    });
    throw err;
  };
  const sent = (providerId: string | null) =>
    q
      .updateMessage(ctx.db, messageId, {
        status: 'SENT',
        providerId,
        sentAt: new Date(),
        sendingAt: null,
        error: null,
      })
      .then(() => ({ sent: true }));

  if (claimed.channel === 'WHATSAPP') {
    const config = graphConfigOf(ctx.settings);
    if (!config) return skip('WhatsApp is not configured');
    if (conv.whatsappOptOutAt && !payload.always) return skip('The customer opted out of WhatsApp messages');
    if (!payload.message) return refuse(null, 'No WhatsApp message');
    try {
      const r = await new GraphClient(config).send(conv.phone, payload.message);
      return sent(r.messageId);
    } catch (err) {
      if (!(err instanceof GraphError)) throw err;
      if (err.permanent || lastAttempt(ctx))
        return refuse(err.code === undefined ? null : String(err.code), err.message);
      return retry(err);
    }
  }
  const config = atConfigOf(ctx.settings);
  if (!config) return skip('SMS is not configured');
  if (conv.smsOptOutAt) return skip('The customer opted out of SMS (STOP)');
  const text = payload.sms ?? claimed.text;
  try {
    const r = await new AtClient(config).send(`+${conv.phone}`, text);
    if (AT_ACCEPTED.has(r.statusCode)) return sent(r.messageId);
    if (AT_RETRYABLE.has(r.statusCode) && !lastAttempt(ctx))
      return retry(new AtError(`Africa's Talking: ${r.status} (${r.statusCode})`, 201, false));
    return refuse(String(r.statusCode), r.status);
  } catch (err) {
    if (!(err instanceof AtError)) throw err;
    if (err.permanent || lastAttempt(ctx))
      return refuse(err.status === undefined ? null : String(err.status), err.message);
    return retry(err);
  }
}

// ---- the customer's news ------------------------------------------------------------------------------

/** The order's tracking page and receipt, when the public address is known. */
function links(settings: Pick<Settings, 'publicUrl'>, order: { id: number; trackingToken: string }) {
  if (!settings.publicUrl) return { trackingUrl: null, receiptUrl: null };
  return {
    trackingUrl: `${settings.publicUrl}/track/${order.trackingToken}`,
    receiptUrl: `${settings.publicUrl}/api/orders/${order.id}/receipt?token=${order.trackingToken}`,
  };
}

/** Whether WhatsApp said lately that this number cannot get WhatsApp. */
async function whatsappUnreachable(db: DbOrTx, conversationId: number, now: Date) {
  const last = await q.lastWhatsappFailure(db, conversationId);
  return Boolean(
    last?.errorCode &&
      NOT_ON_WHATSAPP.has(last.errorCode) &&
      now.getTime() - last.at.getTime() < NO_WHATSAPP_MS,
  );
}

/**
 * `customer.notify`: the customer's news about their order, once per event. WhatsApp when it is on and
 * the customer did not opt out: free-form inside their 24-hour window, else the approved template for the
 * news; SMS (for the four kinds of news the issue sends by SMS) when WhatsApp is off for them, or when
 * WhatsApp refuses (see `fallBackToSms`). Nothing when neither rail is configured or the order has no
 * Kenyan mobile number.
 */
export async function notifyCustomer(ctx: Pick<JobContext, 'db' | 'settings' | 'now'>, news: TCustomerNews) {
  const wa = whatsappOn(ctx.settings);
  const sms = smsOn(ctx.settings);
  if (!wa && !sms) return { queued: 0 };
  const row = await q.orderForNews(ctx.db, news.orderId);
  if (!row) return { queued: 0 };
  const { order } = row;
  const msisdn = normaliseMsisdn(order.phone) ?? normaliseMsisdn(row.customerPhone);
  if (!msisdn) return { queued: 0 };
  const now = ctx.now();
  const facts: NewsFacts = {
    orderId: order.id,
    trucks: order.trucks,
    sandType: order.sandType,
    total: fromCents(order.totalCents),
    deliveryCode: order.deliveryCode,
    ...links(ctx.settings, order),
  };
  if (news.loadId) {
    const load = await q.loadForNews(ctx.db, news.loadId);
    if (load)
      Object.assign(facts, {
        plate: load.plate,
        driverName: load.driverName,
        loadNo: load.loadNo,
        loads: Math.max(load.loads, order.trucks),
      });
  }
  if (news.paymentId) {
    const payment = await pq.findPayment(ctx.db, news.paymentId);
    const paid = (await pq.paymentsOfOrders(ctx.db, [order.id])).get(order.id)?.paidCents ?? 0;
    facts.paid = fromCents(payment?.amountCents ?? 0);
    facts.balance = fromCents(
      balanceCents({
        status: order.status,
        paymentStatus: order.paymentStatus,
        totalCents: order.totalCents,
        paidCents: paid,
      }),
    );
  }
  const key = newsKey(news);
  return ctx.db.transaction(async (tx) => {
    const conv = await q.conversationFor(tx, msisdn, {
      language: row.customerLanguage ?? 'en',
      orderId: order.id,
      customerId: order.customerId,
    });
    if (news.event === 'order.placed' && conv.orderId !== order.id)
      await q.updateConversation(tx, conv.id, {
        orderId: order.id,
        customerId: order.customerId ?? conv.customerId,
      });
    const lang = conv.language;
    const smsBody = newsSms(news.event, facts, lang);
    const useWhatsapp = wa && !conv.whatsappOptOutAt && !(await whatsappUnreachable(tx, conv.id, now));
    let queued = 0;
    if (useWhatsapp) {
      const base = { conversation: conv, orderId: order.id, channel: 'WHATSAPP' as const, now };
      if (inWindow(conv, now)) {
        const text = newsText(news.event, facts, lang);
        const photo =
          news.event === 'load.delivered' && news.loadId && facts.trackingUrl
            ? await q.proofPhotoOfLoad(tx, news.loadId)
            : undefined;
        if (
          await queueMessage(tx, {
            ...base,
            text,
            payload: {
              message: { kind: 'text', text, previewUrl: true },
              ...(sms && smsBody ? { sms: smsBody } : {}),
            },
            eventKey: `${key}:WHATSAPP`,
          })
        )
          queued += 1;
        // The proof of delivery: the photo the driver took, through the order's tracking token.
        if (
          photo &&
          (await queueMessage(tx, {
            ...base,
            text: lang === 'sw' ? 'Picha ya uthibitisho wa kufikisha' : 'Proof of delivery photo',
            payload: {
              message: {
                kind: 'image',
                link: `${facts.trackingUrl!.replace('/track/', '/api/track/')}/proof/${news.loadId}`,
                caption:
                  lang === 'sw'
                    ? `Oda #${order.id}: picha ya kufikisha`
                    : `Order #${order.id}: proof of delivery`,
              },
            },
            eventKey: `${key}:WHATSAPP:photo`,
          }))
        )
          queued += 1;
      } else {
        const which = newsTemplate(news.event);
        const name = ctx.settings.whatsapp.templates[which];
        const parameters = templateParameters(news.event, facts, lang);
        if (
          await queueMessage(tx, {
            ...base,
            text: parameters[1]!,
            template: name,
            payload: {
              message: {
                kind: 'template',
                name,
                language: ctx.settings.whatsapp.templateLanguages[lang],
                parameters,
              },
              ...(sms && smsBody ? { sms: smsBody } : {}),
            },
            eventKey: `${key}:WHATSAPP`,
          })
        )
          queued += 1;
      }
    } else if (sms && smsBody) {
      if (
        await queueMessage(tx, {
          conversation: conv,
          orderId: order.id,
          channel: 'SMS',
          text: smsBody,
          payload: { sms: smsBody },
          eventKey: `${key}:SMS`,
          now,
        })
      )
        queued += 1;
    }
    return { queued };
  });
}
