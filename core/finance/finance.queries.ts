import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, rows as sqlRows } from '../../drizzle/db';
import { splitMonths } from '../../shared/domain/finance';
import type { CostType } from '../../shared/enums';

/** Totals over Nairobi dates [from, to] from finance_day_total (finance_daily summed a day; kept by triggers). */
export async function rollupTotals(db: DbOrTx, from: string, to: string) {
  const [row] = await sqlRows<{ revenue: number; orders: number; cost: number }>(
    db,
    sql`
    select coalesce(sum(revenue_cents), 0)::float8 as revenue, coalesce(sum(orders), 0)::int as orders,
           coalesce(sum(cost_cents), 0)::float8 as cost
    from finance_day_total where day between ${from}::date and ${to}::date`,
  );
  return row;
}

/** Revenue and cost per Nairobi date of [from, to] that has any, from finance_day_total. */
export function rollupByDay(db: DbOrTx, from: string, to: string) {
  return sqlRows<{ day: string | Date; revenue: number; cost: number }>(
    db,
    sql`
    select day::text as day, revenue_cents::float8 as revenue, cost_cents::float8 as cost
    from finance_day_total where day between ${from}::date and ${to}::date`,
  );
}

/**
 * Trucks with any revenue or cost in the range, most gross first (summed per truck, then named): whole
 * calendar months from finance_monthly, the days before and after them from finance_daily.
 */
export function rollupByTruck(db: DbOrTx, from: string, to: string) {
  const { months, before, after } = splitMonths(from, to);
  const parts: SQL[] = [];
  if (months)
    parts.push(sql`
      select truck_id, loads, revenue_cents, cost_cents from finance_monthly
      where month >= ${months[0]}::date and month < ${months[1]}::date and truck_id <> ''`);
  for (const days of [before, after])
    if (days)
      parts.push(sql`
        select truck_id, loads, revenue_cents, cost_cents from finance_daily
        where day between ${days[0]}::date and ${days[1]}::date and truck_id <> ''`);
  return sqlRows<{ truck_id: string; plate: string | null; loads: number; revenue: number; cost: number }>(
    db,
    sql`
    select f.truck_id, t.plate, f.loads, f.revenue, f.cost
    from (select truck_id, sum(loads)::int as loads, sum(revenue_cents)::float8 as revenue, sum(cost_cents)::float8 as cost
          from (${sql.join(parts, sql` union all `)}) r
          group by truck_id
          having sum(revenue_cents) <> 0 or sum(cost_cents) <> 0) f
    left join trucks t on t.id = f.truck_id
    order by f.revenue - f.cost desc, f.truck_id`,
  );
}

/** Non-voided costs by type over Nairobi dates [from, to], from the cost_type_daily rollup. */
export function costsByType(db: DbOrTx, from: string, to: string) {
  return sqlRows<{ type: CostType; cents: number }>(
    db,
    sql`
    select type, sum(cost_cents)::float8 as cents from cost_type_daily
    where day between ${from}::date and ${to}::date
    group by type having sum(cost_cents) <> 0 order by cents desc, type`,
  );
}
