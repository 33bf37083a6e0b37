import { sql } from 'drizzle-orm';
import { type DbOrTx, rows as sqlRows } from '../../../drizzle/db';

/** Totals over Nairobi dates [from, to] from the finance_daily rollup (kept by triggers). */
export async function rollupTotals(db: DbOrTx, from: string, to: string) {
  const [row] = await sqlRows<{ revenue: number; orders: number; cost: number }>(
    db,
    sql`
    select coalesce(sum(revenue_cents), 0)::float8 as revenue, coalesce(sum(orders), 0)::int as orders,
           coalesce(sum(cost_cents), 0)::float8 as cost
    from finance_daily where day between ${from}::date and ${to}::date`,
  );
  return row;
}

export function rollupByDay(db: DbOrTx, from: string, to: string) {
  return sqlRows<{ day: string | Date; revenue: number; cost: number }>(
    db,
    sql`
    select day::text as day, sum(revenue_cents)::float8 as revenue, sum(cost_cents)::float8 as cost
    from finance_daily where day between ${from}::date and ${to}::date group by day`,
  );
}

/** Trucks with any revenue or cost in the range, most gross first (summed per truck, then named). */
export function rollupByTruck(db: DbOrTx, from: string, to: string) {
  return sqlRows<{ truck_id: string; plate: string | null; loads: number; revenue: number; cost: number }>(
    db,
    sql`
    select f.truck_id, t.plate, f.loads, f.revenue, f.cost
    from (select truck_id, sum(loads)::int as loads, sum(revenue_cents)::float8 as revenue, sum(cost_cents)::float8 as cost
          from finance_daily
          where day between ${from}::date and ${to}::date and truck_id <> ''
          group by truck_id
          having sum(revenue_cents) <> 0 or sum(cost_cents) <> 0) f
    left join trucks t on t.id = f.truck_id
    order by f.revenue - f.cost desc, f.truck_id`,
  );
}

/** Non-voided costs by type over Nairobi dates [from, to], from the cost_type_daily rollup. */
export function costsByType(db: DbOrTx, from: string, to: string) {
  return sqlRows<{ type: string; cents: number }>(
    db,
    sql`
    select type, sum(cost_cents)::float8 as cents from cost_type_daily
    where day between ${from}::date and ${to}::date
    group by type having sum(cost_cents) <> 0 order by cents desc, type`,
  );
}
