import { z } from 'zod';

export const CHAT_ID_MESSAGE = 'Telegram chat id must be numeric; group ids start with -100.';

/** A private chat id is a positive number; a group id is negative and starts with -100. Blank clears it. */
export function validTelegramChatId(v: string): boolean {
  return /^\d{3,20}$/.test(v) || /^-100\d{3,17}$/.test(v);
}

export const ZNotificationTargetUpdate = z.object({
  id: z.coerce.number().int().positive('Recipient not found.'),
  telegramChatId: z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : v),
    z
      .string({ error: CHAT_ID_MESSAGE })
      .refine((v) => v === '' || validTelegramChatId(v), CHAT_ID_MESSAGE)
      .nullable()
      .optional(),
  ),
});

export const ZNotificationRecipient = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
  telegramChatId: z.string().nullable(),
});

export const ZNotificationTargets = z.object({
  recipients: z.array(ZNotificationRecipient),
  botConfigured: z.boolean(),
});
