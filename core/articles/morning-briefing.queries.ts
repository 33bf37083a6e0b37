import { eq, type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, rows as sqlRows } from '../../drizzle/db';
import { articles, dailySummaries } from '../../drizzle/schema';

/** Yesterday's operations for the briefing, all from delivered_loads: loads, revenue, the busiest driver and site; and costs. */
export async function dayFigures(db: DbOrTx, start: string, end: string) {
  const rows = <T>(q: SQL) => sqlRows<T>(db, q);
  const [[day], [costs], [top], [site]] = await Promise.all([
    rows<{ loads: number; tonnes: number; revenue_cents: number }>(sql`
      select count(*)::int as loads, coalesce(sum(tonnes), 0)::float8 as tonnes,
             coalesce(sum(revenue_cents), 0)::float8 as revenue_cents
      from delivered_loads where delivered_at >= ${start} and delivered_at < ${end}`),
    rows<{ total_cents: number }>(sql`
      select coalesce(sum(amount_cents), 0)::float8 as total_cents from costs
      where voided_at is null and incurred_at >= ${start} and incurred_at < ${end}`),
    rows<{ name: string; loads: number }>(sql`
      select d.name, count(*)::int as loads from delivered_loads l join drivers d on d.id = l.driver_id
      where l.delivered_at >= ${start} and l.delivered_at < ${end}
      group by d.name order by loads desc, d.name limit 1`),
    rows<{ site: string }>(sql`
      select o.site from delivered_loads l join orders o on o.id = l.order_id
      where l.delivered_at >= ${start} and l.delivered_at < ${end}
      group by o.site order by count(*) desc, o.site limit 1`),
  ]);
  return { day, costs, top, site };
}

export async function articleWritten(db: DbOrTx, date: string): Promise<boolean> {
  const [row] = await db
    .select({ id: articles.id })
    .from(articles)
    .where(eq(articles.forDate, date))
    .limit(1);
  return Boolean(row);
}

/** One public article per Nairobi day: a second run finds the day written and inserts nothing. */
export function insertArticle(db: DbOrTx, values: typeof articles.$inferInsert) {
  return db
    .insert(articles)
    .values(values)
    .onConflictDoNothing({ target: articles.forDate })
    .returning({ id: articles.id });
}

/** One staff summary per Nairobi day, likewise. */
export function insertDailySummary(db: DbOrTx, values: typeof dailySummaries.$inferInsert) {
  return db
    .insert(dailySummaries)
    .values(values)
    .onConflictDoNothing({ target: dailySummaries.forDate })
    .returning({ id: dailySummaries.id });
}
