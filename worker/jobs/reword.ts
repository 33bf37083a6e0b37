import type { Llm } from '../../shared/ai/llm';

/**
 * The LLM's rewording of a rule-written text, or null when no LLM is configured, it fails or answers
 * nothing, or `accept` refuses its answer. The rule-written text always stands as the fallback.
 */
export async function reword(
  llm: Llm | null,
  instructions: string,
  text: string,
  accept: (reworded: string) => boolean = () => true,
): Promise<string | null> {
  if (!llm) return null;
  try {
    const reworded = await llm.complete(instructions, [{ role: 'user', content: text }]);
    return reworded && accept(reworded) ? reworded : null;
  } catch {
    return null;
  }
}
