import { askAssistant } from '../../../core/chatbot/chatbot.service';
import { ZChatAnswer, ZChatInput } from '../../../shared/schemas/chat';
import { publicProcedure, router } from '../../trpc';

export const chatbotRouter = router({
  ask: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/chatbot',
        summary: 'Ask the dispatch assistant',
        errors: [429],
        example: {
          messages: [{ role: 'user', content: 'How much for 2 trucks of coarse sand to Ruiru?' }],
          context: 'Latest quote: 2 trucks coarse to Ruiru, KES 64,000.',
        },
      },
    })
    .input(ZChatInput)
    .output(ZChatAnswer)
    .mutation(({ ctx, input }) =>
      askAssistant(
        {
          db: ctx.db,
          settings: ctx.deps.settings,
          llm: ctx.deps.llm,
          limiter: ctx.deps.limiters.chatPerIp,
          log: ctx.deps.log,
        },
        ctx.ip,
        input.messages,
        input.context,
      ),
    ),
});
