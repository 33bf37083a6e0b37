import { INSIGHTS_MAX_CHARS, type Insights, ruleInsights } from '../../shared/domain/insights';
import type { InsightGenerator } from '../../shared/enums';
import { rewordWithReason } from '../ai/reword';
import type { JobContext } from '../jobs/context';
import { gatherInsightFacts, insertInsights } from './generate.queries';

/**
 * Rules always decide the content; the LLM, when configured, only rewrites the summary paragraph (at
 * most INSIGHTS_MAX_CHARS). When it fails, the rules' text is kept with the reason, which ADMIN sees.
 */
export async function generateInsights(
  ctx: Pick<JobContext, 'db' | 'now' | 'llm' | 'settings'>,
): Promise<Insights & { generator: InsightGenerator; llmFailure: string | null }> {
  const now = ctx.now();
  const facts = await gatherInsightFacts(ctx.db, now, ctx.settings.alerts.idleMinutes);
  const rules = ruleInsights(facts);
  const reworded = await rewordWithReason(
    ctx.llm,
    'You write a short operations summary for a Kenyan sand-delivery dispatcher. Use only the facts given; keep every number exactly as given; 3 to 5 sentences, no headings.',
    rules.insights,
    { maxChars: INSIGHTS_MAX_CHARS },
  );
  const insights = reworded.text ?? rules.insights;
  const generator: InsightGenerator = reworded.text ? 'llm' : 'rules';
  await insertInsights(ctx.db, {
    insights,
    alerts: rules.alerts,
    generator,
    llmFailure: reworded.failure,
    generatedAt: now,
  });
  return { insights, alerts: rules.alerts, generator, llmFailure: reworded.failure };
}
