import { z } from 'zod';
import { ROLES } from '../roles';
import { zIntId } from './common';

export const RECIPIENT_NOT_FOUND = 'Recipient not found.';

export const CHAT_ID_MESSAGE = 'Telegram chat id must be numeric; group ids start with -100.';

/** A private chat id is a positive number; a group id is negative and starts with -100. Blank clears it. */
export function validTelegramChatId(v: string): boolean {
  return /^\d{3,20}$/.test(v) || /^-100\d{3,17}$/.test(v);
}

export const ZNotificationTargetUpdate = z.object({
  id: zIntId(RECIPIENT_NOT_FOUND),
  telegramChatId: z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : v),
    z
      .string({ error: CHAT_ID_MESSAGE })
      .refine((v) => v === '' || validTelegramChatId(v), CHAT_ID_MESSAGE)
      .nullable()
      .optional(),
  ),
});

export type TNotificationTargetUpdate = z.infer<typeof ZNotificationTargetUpdate>;

export const ZNotificationRecipient = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  telegramChatId: z.string().nullable(),
});

export type TNotificationRecipient = z.infer<typeof ZNotificationRecipient>;

/** Telegram refused the recipient's latest alert in their current chat (400 chat not found, 403 blocked). */
export const ZDeliveryFailure = z.object({ error: z.string(), at: z.string() });

export const ZNotificationTarget = ZNotificationRecipient.extend({ failing: ZDeliveryFailure.nullable() });
export type TNotificationTarget = z.infer<typeof ZNotificationTarget>;

export const ZNotificationTargets = z.object({
  recipients: z.array(ZNotificationTarget),
  botConfigured: z.boolean(),
});
export type TNotificationTargets = z.infer<typeof ZNotificationTargets>;
