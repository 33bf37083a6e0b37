import type { DbOrTx } from '../../drizzle/db';
import { smsText } from '../../shared/domain/sms';
import {
  MESSAGING_MESSAGES,
  type TConversation,
  type TOrderConversations,
  type TReplyInput,
  type TTakeoverInput,
} from '../../shared/schemas/messaging';
import type { Settings } from '../../shared/settings';
import { smsOn, whatsappOn } from '../../shared/settings';
import type { CtxUser } from '../access/actor';
import { recordChange } from '../activity/activity';
import { appError } from '../errors';
import { findOrder } from '../orders/orders.queries';
import * as q from './messaging.queries';
import { inWindow, queueMessage } from './outgoing';

async function view(db: DbOrTx, conv: q.ConversationRow, now: Date): Promise<TConversation> {
  const rows = await q.conversationMessages(db, conv.id);
  const by = conv.humanTakeoverById ? await q.userName(db, conv.humanTakeoverById) : null;
  return {
    id: conv.id,
    phone: conv.phone,
    profileName: conv.profileName,
    language: conv.language,
    windowOpen: inWindow(conv, now),
    takenOver: conv.humanTakeoverAt !== null,
    takenOverBy: conv.humanTakeoverAt ? by : null,
    smsOptedOut: conv.smsOptOutAt !== null,
    whatsappOptedOut: conv.whatsappOptOutAt !== null,
    messages: rows.map((m) => ({
      id: m.id,
      direction: m.direction,
      channel: m.channel,
      text: m.text,
      template: m.template,
      status: m.status,
      errorCode: m.errorCode,
      error: m.error,
      byUserName: m.byUserName,
      at: m.createdAt.toISOString(),
    })),
  };
}

/** The conversations an order's customer had with Mchanga on WhatsApp and SMS (ops, on the order). */
export async function orderConversations(
  db: DbOrTx,
  settings: Pick<Settings, 'whatsapp' | 'sms'>,
  orderId: number,
  now: Date,
): Promise<TOrderConversations> {
  if (!(await findOrder(db, orderId))) throw appError('NOT_FOUND', MESSAGING_MESSAGES.orderNotFound);
  const convs = await q.conversationsOfOrder(db, orderId);
  return {
    whatsapp: whatsappOn(settings),
    sms: smsOn(settings),
    conversations: await Promise.all(convs.map((c) => view(db, c, now))),
  };
}

/** Ops take the conversation over (the bot stays quiet) or hand it back. */
export async function setTakeover(
  db: DbOrTx,
  user: CtxUser,
  input: TTakeoverInput,
  now: Date,
): Promise<TConversation> {
  const updated = await db.transaction(async (tx) => {
    const conv = await q.findConversation(tx, input.id);
    if (!conv) throw appError('NOT_FOUND', MESSAGING_MESSAGES.conversationNotFound);
    const row = await q.updateConversation(tx, conv.id, {
      humanTakeoverAt: input.on ? now : null,
      humanTakeoverById: input.on ? user.id : null,
    });
    await recordChange(tx, {
      entity: 'conversation',
      entityId: conv.id,
      before: { takenOver: conv.humanTakeoverAt !== null },
      after: { takenOver: input.on },
    });
    return row;
  });
  return view(db, updated, now);
}

/**
 * Ops' own reply: free-form WhatsApp inside the customer's 24-hour window, else SMS when it is on;
 * otherwise 409 (only templates reach them then). Replying takes the conversation over.
 */
export async function replyToCustomer(
  db: DbOrTx,
  settings: Pick<Settings, 'whatsapp' | 'sms'>,
  user: CtxUser,
  input: TReplyInput,
  now: Date,
): Promise<TConversation> {
  const conv = await db.transaction(async (tx) => {
    const found = await q.findConversation(tx, input.id);
    if (!found) throw appError('NOT_FOUND', MESSAGING_MESSAGES.conversationNotFound);
    const conv = await q.conversationFor(tx, found.phone);
    const byWhatsapp = whatsappOn(settings) && !conv.whatsappOptOutAt && inWindow(conv, now);
    const bySms = !byWhatsapp && smsOn(settings) && !conv.smsOptOutAt;
    if (!byWhatsapp && !bySms)
      throw appError(
        'CONFLICT',
        conv.whatsappOptOutAt || conv.smsOptOutAt
          ? MESSAGING_MESSAGES.optedOut
          : MESSAGING_MESSAGES.windowClosed,
      );
    const orderId = input.orderId ?? conv.orderId;
    if (byWhatsapp)
      await queueMessage(tx, {
        conversation: conv,
        orderId,
        channel: 'WHATSAPP',
        text: input.text,
        payload: { message: { kind: 'text', text: input.text } },
        byUserId: user.id,
        now,
      });
    else {
      const sms = smsText(input.text);
      await queueMessage(tx, {
        conversation: conv,
        orderId,
        channel: 'SMS',
        text: sms,
        payload: { sms },
        byUserId: user.id,
        now,
      });
    }
    await recordChange(tx, {
      entity: 'conversation',
      entityId: conv.id,
      before: null,
      after: { reply: input.text, channel: byWhatsapp ? 'WHATSAPP' : 'SMS', orderId },
    });
    return q.updateConversation(tx, conv.id, {
      humanTakeoverAt: conv.humanTakeoverAt ?? now,
      humanTakeoverById: conv.humanTakeoverAt ? conv.humanTakeoverById : user.id,
    });
  });
  return view(db, conv, now);
}
