import OpenAI from 'openai';
// Node-only (the server and the worker share it); the client never imports it.

/** The OpenAI-compatible client when OPENAI_API_KEY is set (OPENAI_BASE_URL, OPENAI_MODEL optional); else null. */
export interface Llm {
  complete(system: string, messages: Array<{ role: 'user' | 'assistant'; content: string }>): Promise<string>;
}

export const LLM_TIMEOUT_MS = 15_000;

export function createLlm(env: NodeJS.ProcessEnv = process.env): Llm | null {
  if (!env.OPENAI_API_KEY) return null;
  const client = new OpenAI({
    apiKey: env.OPENAI_API_KEY,
    ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
    timeout: LLM_TIMEOUT_MS,
    maxRetries: 1,
  });
  const model = env.OPENAI_MODEL ?? 'gpt-4o-mini';
  return {
    async complete(system, messages) {
      const res = await client.chat.completions.create({
        model,
        temperature: 0.2,
        max_tokens: 400,
        messages: [{ role: 'system', content: system }, ...messages],
      });
      return res.choices[0]?.message?.content?.trim() ?? '';
    },
  };
}
