import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, rows as sqlRows } from '../../drizzle/db';
import { aiInsights } from '../../drizzle/schema';
import type { InsightFacts } from '../../shared/domain/insights';

/** The figures the insight rules and the morning briefing read, over the last 7 days to `now`. */
export async function gatherInsightFacts(db: DbOrTx, now: Date, idleMinutes: number): Promise<InsightFacts> {
  const at = now.toISOString();
  const rows = <T>(q: SQL) => sqlRows<T>(db, q);
  const [spikes, [reviews], idle, [stock], [dups], [delivered], [costs]] = await Promise.all([
    rows<{ plate: string; last7: number; usual7: number }>(sql`
      with per_truck as (
        select c.truck_id,
               sum(c.amount_cents) filter (where c.incurred_at >= ${at}::timestamptz - interval '7 days')::float8 / 100 as last7,
               sum(c.amount_cents) filter (where c.incurred_at < ${at}::timestamptz - interval '7 days')::float8 / 100 / 3 as usual7
        from costs c
        where c.voided_at is null and c.truck_id is not null and c.type <> 'STOCK_PURCHASE'
          and c.incurred_at >= ${at}::timestamptz - interval '28 days' and c.incurred_at < ${at}::timestamptz
        group by c.truck_id)
      select coalesce(t.plate, p.truck_id) as plate, p.last7, p.usual7 from per_truck p left join trucks t on t.id = p.truck_id
      where p.usual7 > 0 and p.last7 > 2 * p.usual7 and p.last7 > 5000 order by p.last7 desc limit 5`),
    rows<{ count: number; oldest: number | null }>(sql`
      select count(*)::int as count, extract(epoch from (${at}::timestamptz - min(updated_at)))::float8 / 3600 as oldest
      from orders where status = 'PAYMENT_REVIEW'`),
    rows<{ plate: string; idle: number }>(sql`
      select coalesce(t.plate, l.truck_id) as plate,
             floor(extract(epoch from (${at}::timestamptz - coalesce(l.last_moved_at, l.fix_time))) / 60)::int as idle
      from truck_latest l join trucks t on t.id = l.truck_id
      where exists (select 1 from assignments a where a.truck_id = l.truck_id and a.status in ('SCHEDULED','IN_TRANSIT'))
        and coalesce(l.last_moved_at, l.fix_time) < ${at}::timestamptz - make_interval(mins => ${idleMinutes})
      order by idle desc limit 5`),
    rows<{ tonnes: number; per_day: number }>(sql`
      select (select tonnes from yard_stock)::float8 as tonnes,
             coalesce((select sum(tonnes) from delivered_loads
                       where delivered_at >= ${at}::timestamptz - interval '7 days' and delivered_at < ${at}::timestamptz), 0)::float8 / 7 as per_day`),
    rows<{ n: number }>(sql`
      select ((select count(*) from costs where is_duplicate and source <> 'FUEL' and reviewed_at is null and voided_at is null)
            + (select count(*) from fuel_logs where is_duplicate and reviewed_at is null and voided_at is null))::int as n`),
    rows<{ loads: number; revenue: number }>(sql`
      select count(*)::int as loads, coalesce(sum(revenue_cents), 0)::float8 / 100 as revenue
      from delivered_loads
      where delivered_at >= ${at}::timestamptz - interval '7 days' and delivered_at < ${at}::timestamptz`),
    rows<{ total: number }>(sql`
      select coalesce(sum(amount_cents), 0)::float8 / 100 as total from costs
      where voided_at is null and incurred_at >= ${at}::timestamptz - interval '7 days' and incurred_at < ${at}::timestamptz`),
  ]);
  return {
    costSpikes: spikes.map((s) => ({ plate: s.plate, last7: Number(s.last7), usual7: Number(s.usual7) })),
    paymentReviews: {
      count: reviews?.count ?? 0,
      oldestHours: reviews?.oldest === null || reviews?.oldest === undefined ? null : Number(reviews.oldest),
    },
    idleLoadedTrucks: idle.map((i) => ({ plate: i.plate, idleMinutes: Number(i.idle) })),
    stock: { tonnes: Number(stock?.tonnes ?? 0), deliveredPerDay: Number(stock?.per_day ?? 0) },
    pendingDuplicates: dups?.n ?? 0,
    deliveredLast7: { loads: delivered?.loads ?? 0, revenue: Number(delivered?.revenue ?? 0) },
    costsLast7: Number(costs?.total ?? 0),
  };
}

export function insertInsights(db: DbOrTx, values: typeof aiInsights.$inferInsert) {
  return db.insert(aiInsights).values(values);
}
