import OpenAI from 'openai';
import type { Settings } from '../settings';
// Node-only (the server and the worker share it); the client never imports it.

/**
 * A person waiting on a reply: one attempt, no retry, and the whole call (connect, queue, answer)
 * abandoned after `budgetMs` so the caller can fall back in time.
 */
export interface LlmCallOptions {
  budgetMs?: number;
}

/** The OpenAI-compatible client when OPENAI_API_KEY is set (OPENAI_BASE_URL, OPENAI_MODEL optional); else null. */
export interface Llm {
  complete(
    system: string,
    messages: Array<{ role: 'user' | 'assistant'; content: string }>,
    options?: LlmCallOptions,
  ): Promise<string>;
}

/** The reply's ceiling in tokens (reasoning models count their reasoning in it, hence the room). */
export const LLM_MAX_COMPLETION_TOKENS = 1_000;

/** Background rewording (no one waits on it): 15 s per attempt, one retry. */
export const LLM_TIMEOUT_MS = 15_000;

export function createLlm(openai: Settings['openai']): Llm | null {
  if (!openai.apiKey) return null;
  const client = new OpenAI({
    apiKey: openai.apiKey,
    ...(openai.baseUrl ? { baseURL: openai.baseUrl } : {}),
    timeout: LLM_TIMEOUT_MS,
    maxRetries: 1,
  });
  const model = openai.model;
  return {
    async complete(system, messages, options = {}) {
      const { budgetMs } = options;
      // The current Chat Completions API: max_completion_tokens (newer models refuse max_tokens) and no
      // temperature (reasoning models refuse anything but the default; the prompts keep replies plain).
      const res = await client.chat.completions.create(
        {
          model,
          max_completion_tokens: LLM_MAX_COMPLETION_TOKENS,
          messages: [{ role: 'system', content: system }, ...messages],
        },
        budgetMs ? { timeout: budgetMs, maxRetries: 0, signal: AbortSignal.timeout(budgetMs) } : undefined,
      );
      return res.choices[0]?.message?.content?.trim() ?? '';
    },
  };
}
