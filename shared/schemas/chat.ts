import { z } from 'zod';
import { CHAT_LIMITS } from '../domain/chat';

export const ZChatInput = z.object({
  messages: z
    .array(
      z.object({
        role: z.enum(['user', 'assistant'], { error: 'Messages come from the user or the assistant.' }),
        content: z
          .string()
          .max(CHAT_LIMITS.maxChars, `Messages are at most ${CHAT_LIMITS.maxChars} characters.`),
      }),
    )
    .min(1, 'Ask a question first.')
    .max(CHAT_LIMITS.maxMessages, `A conversation holds at most ${CHAT_LIMITS.maxMessages} messages.`),
  /** The page's own description of the latest quote: a hint only, never trusted for prices. */
  context: z.string().max(4000).optional().nullable(),
});

export const ZChatAnswer = z.object({ answer: z.string() });
