import { type Insights, ruleInsights } from '../../shared/domain/insights';
import type { JobContext } from '../context';
import { gatherInsightFacts, insertInsights } from './insights.queries';
import { reword } from './reword';

/** Rules always decide the content; the LLM, when configured, only rewrites the summary paragraph. */
export async function generateInsights(
  ctx: Pick<JobContext, 'db' | 'now' | 'llm' | 'settings'>,
): Promise<Insights & { generator: 'llm' | 'rules' }> {
  const now = ctx.now();
  const facts = await gatherInsightFacts(ctx.db, now, ctx.settings.alerts.idleMinutes);
  const rules = ruleInsights(facts);
  const reworded = await reword(
    ctx.llm,
    'You write a short operations summary for a Kenyan sand-delivery dispatcher. Use only the facts given; keep every number exactly as given; 3 to 5 sentences, no headings.',
    rules.insights,
  );
  const insights = reworded ?? rules.insights;
  const generator = reworded ? 'llm' : 'rules';
  await insertInsights(ctx.db, { insights, alerts: rules.alerts, generator, generatedAt: now });
  return { insights, alerts: rules.alerts, generator };
}
