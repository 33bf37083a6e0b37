import { createLlm } from '../../../shared/ai/llm';
import { ZChatAnswer, ZChatInput } from '../../../shared/schemas/chat';
import { consume, RateLimitedError } from '../../auth/rate-limit';
import { appError } from '../../errors';
import { publicProcedure, router } from '../../trpc';
import { answerChat, chatFacts } from './chatbot.service';

const llm = createLlm();

export const chatbotRouter = router({
  ask: publicProcedure
    .input(ZChatInput)
    .output(ZChatAnswer)
    .mutation(async ({ ctx, input }) => {
      try {
        await consume(ctx.deps.limiters.chatPerIp, ctx.ip);
      } catch (err) {
        if (err instanceof RateLimitedError) {
          throw appError(
            'TOO_MANY_REQUESTS',
            'You are sending messages too fast. Please wait a moment.',
            undefined,
            {
              'retry-after': String(err.retryAfterSeconds),
            },
          );
        }
        throw err;
      }
      const answer = await answerChat(await chatFacts(ctx), input.messages, llm, ctx.deps.log);
      return { answer };
    }),
});
