import { z } from 'zod';
import { LANGUAGES, MESSAGE_CHANNELS, MESSAGE_DIRECTIONS, MESSAGE_STATUSES } from '../enums';
import { zIntId, zText } from './common';

/** The exact messages ops read (issue 29). */
export const MESSAGING_MESSAGES = {
  conversationNotFound: 'Conversation not found.',
  orderNotFound: 'Order not found.',
  replyRequired: 'Write the reply.',
  windowClosed:
    "The customer's 24-hour WhatsApp window is closed and SMS is not configured: only the approved templates can reach them now.",
  optedOut: 'The customer opted out of messages (STOP).',
} as const;

export const ZConversationMessage = z.object({
  id: z.number().int(),
  direction: z.enum(MESSAGE_DIRECTIONS),
  channel: z.enum(MESSAGE_CHANNELS),
  text: z.string(),
  template: z.string().nullable(),
  status: z.enum(MESSAGE_STATUSES),
  errorCode: z.string().nullable(),
  error: z.string().nullable(),
  byUserName: z.string().nullable(),
  at: z.string(),
});
export type TConversationMessage = z.infer<typeof ZConversationMessage>;

export const ZConversation = z.object({
  id: z.number().int(),
  phone: z.string(),
  profileName: z.string().nullable(),
  language: z.enum(LANGUAGES),
  /** Free-form WhatsApp replies are possible (the customer wrote in the last 24 hours). */
  windowOpen: z.boolean(),
  /** Ops answer by hand; the bot stays quiet. */
  takenOver: z.boolean(),
  takenOverBy: z.string().nullable(),
  smsOptedOut: z.boolean(),
  whatsappOptedOut: z.boolean(),
  messages: z.array(ZConversationMessage),
});
export type TConversation = z.infer<typeof ZConversation>;

export const ZOrderConversations = z.object({
  whatsapp: z.boolean(),
  sms: z.boolean(),
  conversations: z.array(ZConversation),
});
export type TOrderConversations = z.infer<typeof ZOrderConversations>;

export const ZTakeoverInput = z.object({
  id: zIntId(MESSAGING_MESSAGES.conversationNotFound),
  on: z.boolean({ error: 'Say whether ops take the conversation over (true) or hand it back (false).' }),
});
export type TTakeoverInput = z.infer<typeof ZTakeoverInput>;

export const ZReplyInput = z.object({
  id: zIntId(MESSAGING_MESSAGES.conversationNotFound),
  orderId: zIntId(MESSAGING_MESSAGES.orderNotFound).optional(),
  text: zText({ label: 'Reply', max: 1000, required: MESSAGING_MESSAGES.replyRequired, multiline: true }),
});
export type TReplyInput = z.infer<typeof ZReplyInput>;
