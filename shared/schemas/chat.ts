import { z } from 'zod';
import { CHAT_LIMITS } from '../domain/chat';
import { zText } from './common';

export const ZChatInput = z.object({
  messages: z
    .array(
      z.object({
        role: z.enum(['user', 'assistant'], { error: 'Messages come from the user or the assistant.' }),
        content: zText({
          label: 'Message',
          max: CHAT_LIMITS.maxChars,
          multiline: true,
          tooLong: `Messages are at most ${CHAT_LIMITS.maxChars} characters.`,
        }),
      }),
    )
    .min(1, 'Ask a question first.')
    .max(CHAT_LIMITS.maxMessages, `A conversation holds at most ${CHAT_LIMITS.maxMessages} messages.`),
  /** The page's own description of the latest quote: a hint only, never trusted for prices. */
  context: zText({ label: 'Context', max: 4000, multiline: true }).optional().nullable(),
});

export type TChatMessage = z.infer<typeof ZChatInput>['messages'][number];

export const ZChatAnswer = z.object({ answer: z.string() });
export type TChatAnswer = z.infer<typeof ZChatAnswer>;

export const CHAT_TOO_FAST = 'You are sending messages too fast. Please wait a moment.';
