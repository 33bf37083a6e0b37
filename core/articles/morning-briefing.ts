import { raiseAlert } from '../../drizzle/outbox';
import { publicArticle, publicRewordingGuard } from '../../shared/domain/briefing';
import { dailySummary } from '../../shared/domain/insights';
import { fromCents } from '../../shared/domain/money';
import { addDays, localDate, startOfLocalDate } from '../../shared/domain/time';
import { reword } from '../ai/reword';
import { gatherInsightFacts } from '../insights/generate.queries';
import type { JobContext } from '../jobs/context';
import { loadPricing } from '../pricing/pricing.service';
import { articleWritten, dayFigures, insertArticle, insertDailySummary } from './morning-briefing.queries';

const REWORD_PUBLIC =
  'Rewrite this article for people buying sand for a building site in Kiambu and Nairobi, Kenya, in plain text paragraphs (no HTML, no Markdown, no links). Keep every number exactly as given. Add no names, places, numbers, prices or facts that are not in the text.';

/**
 * The morning run, once per Nairobi day (yesterday by default), writing two things apart:
 * - the public article, for customers and builders: one topic of the rotation, rule-written from the
 *   public facts only (pricing, hours, yard); the LLM may reword it when its wording passes the guard;
 * - the internal daily summary, for staff: yesterday's figures, people and queues, shown in the AI tab
 *   and sent to the ADMIN/OPS Telegram chats (alert `daily.summary`).
 * A re-run finds the day written and adds nothing.
 */
export async function writeMorningBriefing(
  ctx: Pick<JobContext, 'db' | 'now' | 'llm' | 'settings'>,
  forDate?: string,
) {
  const now = ctx.now();
  const date = forDate ?? addDays(localDate(now), -1);
  const start = startOfLocalDate(date).toISOString();
  const end = startOfLocalDate(addDays(date, 1)).toISOString();
  const [{ day, costs, top, site }, facts, pricing, written] = await Promise.all([
    dayFigures(ctx.db, start, end),
    gatherInsightFacts(ctx.db, now, ctx.settings.alerts.idleMinutes),
    loadPricing(ctx.db),
    articleWritten(ctx.db, date),
  ]);
  const summary = dailySummary(
    {
      date,
      loads: day?.loads ?? 0,
      tonnes: Number(day?.tonnes ?? 0),
      revenue: fromCents(day?.revenue_cents),
      costs: fromCents(costs?.total_cents),
      topDriver: top ? { name: top.name, loads: top.loads } : null,
      busiestSite: site?.site ?? null,
    },
    facts,
  );
  const publicFacts = {
    pricing,
    yardName: ctx.settings.yard.name,
    hours: ctx.settings.dispatch.hours,
    phone: ctx.settings.dispatch.phone,
  };
  const article = publicArticle(date, publicFacts);
  // The model sees the public text only; its answer must hold nothing the public facts do not.
  const reworded = written
    ? null
    : await reword(ctx.llm, REWORD_PUBLIC, article.body, publicRewordingGuard(article.body, publicFacts));
  return ctx.db.transaction(async (tx) => {
    const [published] = await insertArticle(tx, {
      title: article.title,
      topic: article.topic,
      summary: article.summary,
      body: reworded ?? article.body,
      forDate: date,
      generator: reworded ? 'llm' : 'rules',
      createdAt: now,
    });
    if (published) await raiseAlert(tx, { kind: 'article.published', articleId: published.id });
    const [summarised] = await insertDailySummary(tx, { forDate: date, text: summary, generatedAt: now });
    if (summarised) await raiseAlert(tx, { kind: 'daily.summary', day: date });
    return { date, written: Boolean(published), summarised: Boolean(summarised) };
  });
}
