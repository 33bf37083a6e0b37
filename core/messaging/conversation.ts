import type { DbOrTx } from '../../drizzle/db';
import { writeOutbox } from '../../drizzle/outbox';
import { chatReply } from '../../shared/domain/chat';
import {
  askMessage,
  type Draft,
  helpMessage,
  type Input,
  nextStep,
  placedMessage,
  promptSentMessage,
  quoteMessage,
  simpleMessage,
  whereMessage,
} from '../../shared/domain/conversation';
import { roadDistanceKm } from '../../shared/domain/distance';
import { siteRadiusFor } from '../../shared/domain/geofence';
import { fromCents } from '../../shared/domain/money';
import { optKeyword } from '../../shared/domain/sms';
import type { Settings } from '../../shared/settings';
import { stkReady } from '../../shared/settings';
import type { WaMessage } from '../../shared/whatsapp/graph';
import type { InboundMessage } from '../../shared/whatsapp/webhook';
import { createLimiters } from '../auth/rate-limit';
import { chatFacts } from '../chatbot/chatbot.service';
import { AppError } from '../errors';
import type { JobContext } from '../jobs/context';
import { pushStk } from '../mpesa/mpesa.service';
import { signPaymentToken } from '../mpesa/payment-token';
import { findOrder, setSitePoint } from '../orders/orders.queries';
import { placeOrder } from '../orders/orders.service';
import { quoteFor } from '../pricing/pricing.service';
import * as q from './messaging.queries';
import { queueMessage } from './outgoing';

type Ctx = Pick<JobContext, 'settings' | 'now' | 'log'>;

const inputOf = (m: InboundMessage): Input => {
  if (m.kind === 'text') return { kind: 'text', text: m.text };
  if (m.kind === 'reply') return { kind: 'reply', id: m.replyId ?? '', text: m.text };
  if (m.kind === 'location' && m.location)
    return {
      kind: 'location',
      lat: m.location.lat,
      lng: m.location.lng,
      label: [m.location.name, m.location.address].filter(Boolean).join(', ') || null,
    };
  return { kind: 'other' };
};

const trackingUrl = (settings: Pick<Settings, 'publicUrl'>, token: string) =>
  settings.publicUrl ? `${settings.publicUrl}/track/${token}` : null;

/**
 * The bot's answer to a customer's message (inside the processing transaction; its replies go out through
 * the outbox). SMS replies only change the opt-out (STOP / START). On WhatsApp the state machine of
 * shared/domain/conversation.ts decides; while ops have taken the conversation over, the bot stays quiet
 * (STOP still counts).
 */
export async function respond(
  tx: DbOrTx,
  ctx: Ctx,
  conv: q.ConversationRow,
  m: InboundMessage | null,
  smsText?: string,
) {
  const now = ctx.now();
  if (!m) {
    const opt = optKeyword(smsText ?? '');
    if (opt) await q.updateConversation(tx, conv.id, { smsOptOutAt: opt === 'stop' ? now : null });
    return;
  }
  const input = inputOf(m);
  const opt = input.kind === 'text' ? optKeyword(input.text) : null;
  if (conv.humanTakeoverAt && !opt) return;

  const step = nextStep(conv.state, conv.draft as Draft, conv.language, input);
  const lang = step.lang;
  const reply = (message: WaMessage, extra: { eventKey?: string; always?: boolean } = {}) =>
    queueMessage(tx, {
      conversation: conv,
      orderId: conv.orderId,
      channel: 'WHATSAPP',
      text: 'text' in message ? message.text : '',
      payload: { message, ...(extra.always ? { always: true } : {}) },
      eventKey: extra.eventKey ?? null,
      now,
    });
  /** A refusal the customer can act on (a site the pricing cannot take, …) is told, not retried. */
  const refusalAsReply = async <T>(run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await reply({ kind: 'text', text: err.message });
      return undefined;
    }
  };
  let state = step.state;
  let draft = step.draft;
  let orderId = conv.orderId;
  const a = step.action;

  switch (a.do) {
    case 'stop':
      // The confirmation is the last message; nothing after it until START.
      await reply(simpleMessage('stop', lang), { always: true });
      await q.updateConversation(tx, conv.id, { whatsappOptOutAt: now, language: lang });
      return;
    case 'start':
      await q.updateConversation(tx, conv.id, { whatsappOptOutAt: null, smsOptOutAt: null, language: lang });
      await reply(simpleMessage('start', lang));
      return;
    case 'ask':
      await reply(askMessage(a.what, lang));
      break;
    case 'cancelled':
      await reply(simpleMessage('cancelled', lang));
      break;
    case 'help': {
      const text = input.kind === 'text' ? input.text : '';
      let answer: string | undefined;
      if (text) {
        const r = chatReply(text, await chatFacts(tx, ctx.settings));
        if (r.intent !== 'other' && r.intent !== 'greeting') answer = r.text;
      }
      await reply(helpMessage(lang, answer));
      break;
    }
    case 'where': {
      const order = orderId ? await findOrder(tx, orderId) : await q.latestOrderOfPhone(tx, conv.phone);
      if (!order) {
        await reply(simpleMessage('noOrder', lang));
        break;
      }
      orderId = order.id;
      const loads = await q.loadsOfOrder(tx, order.id);
      await reply(
        whereMessage(
          { id: order.id, status: order.status, trackingUrl: trackingUrl(ctx.settings, order.trackingToken) },
          loads,
          lang,
        ),
      );
      break;
    }
    case 'pay': {
      const order = orderId ? await findOrder(tx, orderId) : await q.latestOrderOfPhone(tx, conv.phone);
      if (!order) {
        await reply(simpleMessage('noOrder', lang));
        break;
      }
      orderId = order.id;
      if (stkReady(ctx.settings))
        await writeOutbox(tx, 'messaging.stk', {
          orderId: order.id,
          conversationId: conv.id,
          at: now.toISOString(),
        });
      else
        await reply(
          placedMessage(
            {
              id: order.id,
              total: fromCents(order.totalCents),
              deliveryCode: order.deliveryCode,
              trackingUrl: trackingUrl(ctx.settings, order.trackingToken),
            },
            lang,
            { stk: false, paybill: ctx.settings.mpesa.shortcode ?? null },
          ),
        );
      break;
    }
    case 'quote': {
      const quote = await refusalAsReply(() => quoteOf(tx, ctx, draft));
      if (!quote) break;
      await reply(
        quoteMessage(
          {
            site: draft.site!,
            sandType: draft.sandType!,
            trucks: draft.trucks!,
            perTruck: quote.perTruck,
            total: quote.total,
            distanceKm: quote.distanceKm,
          },
          lang,
        ),
      );
      break;
    }
    case 'place': {
      const customer = await q.customerByPhone(tx, conv.phone);
      const placed = await refusalAsReply(() =>
        placeOrder(
          tx,
          { settings: ctx.settings, log: ctx.log, limiters: undefined },
          {
            name: customer?.name ?? conv.profileName ?? 'WhatsApp customer',
            phone: conv.phone,
            email: customer?.email ?? '',
            site: draft.site!,
            sandType: draft.sandType!,
            trucks: draft.trucks!,
            distanceKm: pinKm(ctx, draft),
            customerId: customer?.id ?? null,
          },
          { ip: 'whatsapp', now },
        ),
      );
      if (!placed) break;
      if (draft.lat !== undefined && draft.lng !== undefined)
        await setSitePoint(
          tx,
          placed.id,
          {
            lat: draft.lat,
            lng: draft.lng,
            radiusM: siteRadiusFor('pin', ctx.settings.tracking.siteRadiusM),
            source: 'pin',
          },
          now,
        );
      const order = (await findOrder(tx, placed.id))!;
      orderId = order.id;
      state = 'ordered';
      draft = {};
      await q.updateConversation(tx, conv.id, { customerId: customer?.id ?? conv.customerId });
      const stk = stkReady(ctx.settings);
      // The same news as the order's own `order.placed` notice (its key), so it is told once.
      await reply(
        placedMessage(
          {
            id: order.id,
            total: fromCents(order.totalCents),
            deliveryCode: order.deliveryCode,
            trackingUrl: trackingUrl(ctx.settings, order.trackingToken),
          },
          lang,
          { stk, paybill: ctx.settings.mpesa.shortcode ?? null },
        ),
        { eventKey: `order.placed:${order.id}:WHATSAPP` },
      );
      if (stk)
        await writeOutbox(tx, 'messaging.stk', {
          orderId: order.id,
          conversationId: conv.id,
          at: now.toISOString(),
        });
      break;
    }
  }
  await q.updateConversation(tx, conv.id, {
    state,
    draft: draft as Record<string, unknown>,
    language: lang,
    orderId,
  });
}

/** A pinned site's distance (the pin is the site); a typed one is left to the distance rules. */
function pinKm(ctx: Ctx, d: Draft): number | undefined {
  if (d.lat === undefined || d.lng === undefined) return undefined;
  return Math.max(0.1, roadDistanceKm(ctx.settings.yard, { lat: d.lat, lng: d.lng }));
}

function quoteOf(db: DbOrTx, ctx: Ctx, d: Draft) {
  return quoteFor(db, ctx.settings, ctx.log, {
    site: d.site!,
    trucks: d.trucks!,
    distanceKm: pinKm(ctx, d),
    perTruckOverride: null,
  });
}

/**
 * `messaging.stk`: the M-Pesa prompt for the order's balance to the conversation's phone (the existing
 * Daraja push, its own limits per phone and order), then a WhatsApp line saying so, or why not.
 */
export async function promptPayment(
  ctx: Pick<JobContext, 'db' | 'settings' | 'now' | 'log'>,
  input: { orderId: number; conversationId: number },
) {
  const conv = await q.findConversation(ctx.db, input.conversationId);
  if (!conv) return { prompted: false };
  const now = ctx.now();
  let message: WaMessage;
  try {
    const token = await signPaymentToken(input.orderId, ctx.settings.jwtSecret, now);
    const sent = await pushStk(
      ctx.db,
      { settings: ctx.settings, log: ctx.log, limiters: stkLimiters(ctx) },
      null,
      { id: input.orderId, phone: conv.phone, paymentToken: token },
      now,
    );
    message = promptSentMessage(sent.amount, conv.language);
  } catch (err) {
    // Nothing to pay, too many prompts, Daraja away: the customer reads why (it says what to do).
    if (!(err instanceof AppError)) throw err;
    message = { kind: 'text', text: err.message };
  }
  await ctx.db.transaction((tx) =>
    queueMessage(tx, {
      conversation: conv,
      orderId: input.orderId,
      channel: 'WHATSAPP',
      text: 'text' in message ? message.text : '',
      payload: { message },
      now,
    }),
  );
  return { prompted: true };
}

let limiters: { db: unknown; value: ReturnType<typeof createLimiters> } | undefined;
/** The prompt limits counted in the database (jobs have no Redis limiter of their own). */
function stkLimiters(ctx: Pick<JobContext, 'db'>) {
  if (limiters?.db !== ctx.db) limiters = { db: ctx.db, value: createLimiters({ db: ctx.db }) };
  return limiters.value;
}
