import type { DbOrTx } from '../../drizzle/db';
import { writeOutbox } from '../../drizzle/outbox';
import type { MessageChannel } from '../../shared/enums';
import type { WaMessage } from '../../shared/whatsapp/graph';
import * as q from './messaging.queries';

/** The customer's 24-hour customer service window: free-form WhatsApp messages only inside it. */
export const WINDOW_MS = 24 * 3600_000;
export const inWindow = (conv: Pick<q.ConversationRow, 'lastInboundAt'>, now: Date) =>
  conv.lastInboundAt !== null && now.getTime() - conv.lastInboundAt.getTime() < WINDOW_MS;

/**
 * What an outgoing message's payload holds: the WhatsApp message, the SMS to send if WhatsApp refuses,
 * and `always` for the one confirmation of an opt-out (sent although the customer just opted out).
 */
export interface OutgoingPayload {
  message?: WaMessage;
  sms?: string;
  always?: boolean;
}

export interface Outgoing {
  conversation: Pick<q.ConversationRow, 'id'>;
  orderId?: number | null;
  channel: MessageChannel;
  /** What the person reads. */
  text: string;
  payload: OutgoingPayload;
  template?: string | null;
  eventKey?: string | null;
  byUserId?: number | null;
  now: Date;
}

/**
 * Writes a message PENDING with its `messaging.send` job (same transaction): it goes once the change it
 * belongs to commits. Undefined when its event key was written before.
 */
export async function queueMessage(tx: DbOrTx, m: Outgoing) {
  const row = await q.insertOutgoing(tx, {
    conversationId: m.conversation.id,
    orderId: m.orderId ?? null,
    direction: 'OUT',
    channel: m.channel,
    text: m.text,
    payload: m.payload as Record<string, unknown>,
    template: m.template ?? null,
    status: 'PENDING',
    eventKey: m.eventKey ?? null,
    byUserId: m.byUserId ?? null,
    createdAt: m.now,
    updatedAt: m.now,
  });
  if (row) await writeOutbox(tx, 'messaging.send', { messageId: row.id });
  return row;
}

/** A WhatsApp message the rail refused: its news goes by SMS instead, when there is one and SMS is on. */
export async function fallBackToSms(tx: DbOrTx, msg: q.MessageRow) {
  const payload = (msg.payload ?? {}) as OutgoingPayload;
  if (!payload.sms) return;
  await queueMessage(tx, {
    conversation: { id: msg.conversationId },
    orderId: msg.orderId,
    channel: 'SMS',
    text: payload.sms,
    payload: { sms: payload.sms },
    eventKey: msg.eventKey ? `${msg.eventKey.replace(/:WHATSAPP$/, '')}:SMS` : null,
    byUserId: msg.byUserId,
    now: new Date(),
  });
}
