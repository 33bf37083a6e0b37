import { z } from 'zod';
import { INSIGHT_GENERATORS } from '../enums';

export const ZInsights = z.object({
  insights: z.string(),
  alerts: z.array(z.string()),
  generatedAt: z.string().nullable(),
  generator: z.enum(INSIGHT_GENERATORS).nullable(),
  /** Why the configured language model's text was not used (these are the rules' words); null otherwise. */
  llmFailure: z.string().nullable(),
  /** The latest internal daily summary (staff only; never on the public site). */
  dailySummary: z.object({ date: z.string(), text: z.string() }).nullable(),
});
export type TInsights = z.infer<typeof ZInsights>;

export const ZQueued = z.object({ queued: z.literal(true) });
export type TQueued = z.infer<typeof ZQueued>;
