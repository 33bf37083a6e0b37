import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, rows as sqlRows } from '../../drizzle/db';
import { aiInsights } from '../../drizzle/schema';
import type { InsightFacts } from '../../shared/domain/insights';
import { fromCents, toCents } from '../../shared/domain/money';
import { idleMinutes as idleMinutesOf, isIdle } from '../../shared/domain/telemetry';
import { loadedTrucks } from '../telemetry/ingest.queries';

/** The figures the insight rules and the morning briefing read, over the last 7 days to `now`. */
export async function gatherInsightFacts(db: DbOrTx, now: Date, idleMinutes: number): Promise<InsightFacts> {
  const at = now.toISOString();
  const rows = <T>(q: SQL) => sqlRows<T>(db, q);
  const [spikes, [reviews], loaded, [stock], [dups], [delivered], [costs]] = await Promise.all([
    rows<{ plate: string; last7_cents: number; usual7_cents: number }>(sql`
      with per_truck as (
        select c.truck_id,
               sum(c.amount_cents) filter (where c.incurred_at >= ${at}::timestamptz - interval '7 days')::float8 as last7_cents,
               sum(c.amount_cents) filter (where c.incurred_at < ${at}::timestamptz - interval '7 days')::float8 / 3 as usual7_cents
        from costs c
        where c.voided_at is null and c.truck_id is not null and c.type <> 'STOCK_PURCHASE'
          and c.incurred_at >= ${at}::timestamptz - interval '28 days' and c.incurred_at < ${at}::timestamptz
        group by c.truck_id)
      select coalesce(t.plate, p.truck_id) as plate, p.last7_cents, p.usual7_cents from per_truck p left join trucks t on t.id = p.truck_id
      where p.usual7_cents > 0 and p.last7_cents > 2 * p.usual7_cents and p.last7_cents > ${toCents(5000)}
      order by p.last7_cents desc limit 5`),
    rows<{ count: number; oldest: number | null }>(sql`
      select count(*)::int as count, extract(epoch from (${at}::timestamptz - min(updated_at)))::float8 / 3600 as oldest
      from orders where status = 'PAYMENT_REVIEW'`),
    loadedTrucks(db),
    rows<{ tonnes: number; per_day: number }>(sql`
      select (select tonnes from yard_stock)::float8 as tonnes,
             coalesce((select sum(tonnes) from delivered_loads
                       where delivered_at >= ${at}::timestamptz - interval '7 days' and delivered_at < ${at}::timestamptz), 0)::float8 / 7 as per_day`),
    rows<{ n: number }>(sql`
      select ((select count(*) from costs where is_duplicate and source <> 'FUEL' and reviewed_at is null and voided_at is null)
            + (select count(*) from fuel_logs where is_duplicate and reviewed_at is null and voided_at is null))::int as n`),
    rows<{ loads: number; revenue_cents: number }>(sql`
      select count(*)::int as loads, coalesce(sum(revenue_cents), 0)::float8 as revenue_cents
      from delivered_loads
      where delivered_at >= ${at}::timestamptz - interval '7 days' and delivered_at < ${at}::timestamptz`),
    rows<{ total_cents: number }>(sql`
      select coalesce(sum(amount_cents), 0)::float8 as total_cents from costs
      where voided_at is null and incurred_at >= ${at}::timestamptz - interval '7 days' and incurred_at < ${at}::timestamptz`),
  ]);
  return {
    costSpikes: spikes.map((s) => ({
      plate: s.plate,
      last7: fromCents(s.last7_cents),
      usual7: fromCents(s.usual7_cents),
    })),
    paymentReviews: {
      count: reviews?.count ?? 0,
      oldestHours: reviews?.oldest === null || reviews?.oldest === undefined ? null : Number(reviews.oldest),
    },
    idleLoadedTrucks: loaded
      .filter((t) => isIdle(t.lastMovedAt, t.lastUpdated, now, idleMinutes))
      .map((t) => ({ plate: t.plate, idleMinutes: idleMinutesOf(t.lastMovedAt, t.lastUpdated, now)! }))
      .sort((a, b) => b.idleMinutes - a.idleMinutes)
      .slice(0, 5),
    stock: { tonnes: Number(stock?.tonnes ?? 0), deliveredPerDay: Number(stock?.per_day ?? 0) },
    pendingDuplicates: dups?.n ?? 0,
    deliveredLast7: { loads: delivered?.loads ?? 0, revenue: fromCents(delivered?.revenue_cents) },
    costsLast7: fromCents(costs?.total_cents),
  };
}

export function insertInsights(db: DbOrTx, values: typeof aiInsights.$inferInsert) {
  return db.insert(aiInsights).values(values);
}
