import { sql } from 'drizzle-orm';
import type { Database } from '../../drizzle/db';
import { articles } from '../../drizzle/schema';
import type { Llm } from '../../shared/ai/llm';
import { writeBriefing } from '../../shared/domain/briefing';
import { ruleInsights } from '../../shared/domain/insights';
import { addDays, localDate, startOfLocalDate } from '../../shared/domain/time';
import { type EmitAlert, fanOutAlert } from './alert-fanout';
import { gatherInsightFacts } from './insights';

/**
 * One briefing per Nairobi day (yesterday's operations by default); a re-run finds the day written and
 * adds nothing. The LLM, when configured, may reword the body; the figures come from the rows.
 */
export async function writeMorningBriefing(
  database: Database,
  now: Date,
  llm: Llm | null,
  forDate?: string,
  emit: EmitAlert = (kind, refId) => fanOutAlert(database, { kind, refId }),
) {
  const date = forDate ?? addDays(localDate(now), -1);
  const start = startOfLocalDate(date).toISOString();
  const end = startOfLocalDate(addDays(date, 1)).toISOString();
  const rows = database.rows.bind(database);
  const [[day], [costs], [top], [site], facts] = await Promise.all([
    rows<{ loads: number; tonnes: number; revenue: number }>(sql`
      select count(*)::int as loads, coalesce(sum(a.tonnes), 0)::float8 as tonnes,
             coalesce(sum(o.per_truck_cents * a.tonnes / 20), 0)::float8 / 100 as revenue
      from assignments a join orders o on o.id = a.order_id
      where a.status = 'DELIVERED' and a.delivered_at >= ${start} and a.delivered_at < ${end}`),
    rows<{ total: number }>(sql`
      select coalesce(sum(amount_cents), 0)::float8 / 100 as total from costs
      where voided_at is null and incurred_at >= ${start} and incurred_at < ${end}`),
    rows<{ name: string; loads: number }>(sql`
      select d.name, count(*)::int as loads from assignments a join drivers d on d.id = a.driver_id
      where a.status = 'DELIVERED' and a.delivered_at >= ${start} and a.delivered_at < ${end}
      group by d.name order by loads desc, d.name limit 1`),
    rows<{ site: string }>(sql`
      select o.site from assignments a join orders o on o.id = a.order_id
      where a.status = 'DELIVERED' and a.delivered_at >= ${start} and a.delivered_at < ${end}
      group by o.site order by count(*) desc, o.site limit 1`),
    gatherInsightFacts(database, now),
  ]);
  const briefing = writeBriefing({
    date,
    loads: day?.loads ?? 0,
    tonnes: Number(day?.tonnes ?? 0),
    revenue: Number(day?.revenue ?? 0),
    costs: Number(costs?.total ?? 0),
    topDriver: top ? { name: top.name, loads: top.loads } : null,
    busiestSite: site?.site ?? null,
    stockTonnes: facts.stock.tonnes,
    pendingPayments: facts.paymentReviews.count,
    alerts: ruleInsights(facts).alerts,
  });
  let body = briefing.body;
  let generator: 'llm' | 'rules' = 'rules';
  if (llm) {
    try {
      const text = await llm.complete(
        'Rewrite this morning briefing for the crews of a Kenyan sand-delivery business in plain text paragraphs (no HTML, no Markdown links). Keep every number and name exactly as given.',
        [{ role: 'user', content: briefing.body }],
      );
      if (text && !/<[a-z!/]/i.test(text)) {
        body = text;
        generator = 'llm';
      }
    } catch {
      // The data-driven text stands.
    }
  }
  const inserted = await database.db
    .insert(articles)
    .values({
      title: briefing.title,
      topic: briefing.topic,
      summary: briefing.summary,
      body,
      forDate: date,
      generator,
      createdAt: now,
    })
    .onConflictDoNothing({ target: articles.forDate })
    .returning({ id: articles.id });
  if (inserted[0]) await emit('article.published', String(inserted[0].id));
  return { date, written: inserted.length > 0 };
}
