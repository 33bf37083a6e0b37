import type { Llm } from '../../shared/ai/llm';

/** What the LLM made of a rule-written text: its rewording, or why the rules' text stands. */
export interface Rewording {
  text: string | null;
  /** Why the model's text was not used (null when it was, or when no model is configured). */
  failure: string | null;
}

/**
 * The LLM's rewording of a rule-written text, with the reason when it is not used: the call failed (the
 * provider's message, e.g. a model that refuses a parameter), it answered nothing, it was longer than
 * `maxChars`, or `accept` refused it. No LLM configured: no text and no failure.
 */
export async function rewordWithReason(
  llm: Llm | null,
  instructions: string,
  text: string,
  options: { accept?: (reworded: string) => boolean; maxChars?: number } = {},
): Promise<Rewording> {
  if (!llm) return { text: null, failure: null };
  let reworded: string;
  try {
    reworded = await llm.complete(instructions, [{ role: 'user', content: text }]);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { text: null, failure: `The model did not answer: ${message.slice(0, 300)}` };
  }
  if (!reworded) return { text: null, failure: 'The model answered nothing.' };
  if (options.maxChars !== undefined && reworded.length > options.maxChars)
    return {
      text: null,
      failure: `The model's text was too long (${reworded.length} characters; at most ${options.maxChars}).`,
    };
  if (options.accept && !options.accept(reworded))
    return {
      text: null,
      failure: "The model's text failed the checks (figures or wording not from the facts).",
    };
  return { text: reworded, failure: null };
}

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
  return (await rewordWithReason(llm, instructions, text, { accept })).text;
}
