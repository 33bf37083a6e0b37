import { sql } from 'drizzle-orm';
import { type DbOrTx, rows } from '../../drizzle/db';
import { sqlLiterals } from '../../drizzle/sql-lists';
import { OPEN_LOAD_STATUSES, OPEN_ORDER_STATUSES } from '../../shared/enums';

/** Nairobi calendar dates (YYYY-MM-DD): today, and the first of the last seven days. */
export interface Days {
  today: string;
  weekFrom: string;
}

export interface DashboardFigures {
  coarse: number;
  smooth: number;
  tonnes: number;
  pending: number;
  active: number;
  revenueToday: number;
  costToday: number;
  revenueWeek: number;
  costWeek: number;
  perTruck: Array<{ truckId: string; plate: string | null; cents: number }>;
  topDrivers: Array<{ driverId: string; name: string; tonnes: number; cents: number }>;
}

/**
 * Every figure of the overview in one statement, each from a small table: yard stock from yard_stock
 * (the running balance), open orders and active loads counted over their partial indexes, revenue and
 * costs (voided ones left out) from finance_daily, and the top five drivers by revenue then tonnes from
 * driver_daily. Cents arrive as float8; the lists as JSON text (the same on both drivers).
 */
export async function dashboardFigures(db: DbOrTx, days: Days, topDrivers = 5): Promise<DashboardFigures> {
  const [row] = await rows<Omit<DashboardFigures, 'perTruck' | 'topDrivers'> & Record<string, unknown>>(
    db,
    sql`
    select y.coarse_tonnes::float8 as coarse, y.smooth_tonnes::float8 as smooth, y.tonnes::float8 as tonnes,
      (select count(*) from orders
        where status in (${sqlLiterals(OPEN_ORDER_STATUSES)}))::int as pending,
      (select count(*) from assignments where status in (${sqlLiterals(OPEN_LOAD_STATUSES)}))::int as active,
      m.revenue_today as "revenueToday", m.cost_today as "costToday",
      m.revenue_week as "revenueWeek", m.cost_week as "costWeek",
      (select coalesce(json_agg(json_build_object('truckId', c.truck_id, 'plate', c.plate, 'cents', c.cents)
                                order by c.cents desc, c.truck_id), '[]')::text
       from (select f.truck_id, t.plate, sum(f.cost_cents)::float8 as cents
             from finance_daily f left join trucks t on t.id = f.truck_id
             where f.day = ${days.today}::date and f.truck_id <> ''
             group by f.truck_id, t.plate having sum(f.cost_cents) > 0) c) as per_truck,
      (select coalesce(json_agg(json_build_object('driverId', b.id, 'name', b.name, 'tonnes', b.tonnes, 'cents', b.cents)
                                order by b.cents desc, b.tonnes desc, b.id), '[]')::text
       from (select d.id, d.name, sum(r.tonnes)::float8 as tonnes, sum(r.revenue_cents)::float8 as cents
             from driver_daily r join drivers d on d.id = r.driver_id
             where r.day between ${days.weekFrom}::date and ${days.today}::date
             group by d.id, d.name having sum(r.loads) > 0
             order by cents desc, tonnes desc, d.id limit ${topDrivers}) b) as top_drivers
    from yard_stock y,
      (select coalesce(sum(revenue_cents) filter (where day = ${days.today}::date), 0)::float8 as revenue_today,
              coalesce(sum(cost_cents) filter (where day = ${days.today}::date), 0)::float8 as cost_today,
              coalesce(sum(revenue_cents), 0)::float8 as revenue_week,
              coalesce(sum(cost_cents), 0)::float8 as cost_week
       from finance_daily where day between ${days.weekFrom}::date and ${days.today}::date) m`,
  );
  const r = row!;
  return {
    coarse: Number(r.coarse),
    smooth: Number(r.smooth),
    tonnes: Number(r.tonnes),
    pending: Number(r.pending),
    active: Number(r.active),
    revenueToday: Number(r.revenueToday),
    costToday: Number(r.costToday),
    revenueWeek: Number(r.revenueWeek),
    costWeek: Number(r.costWeek),
    perTruck: JSON.parse(String(r.per_truck)),
    topDrivers: JSON.parse(String(r.top_drivers)),
  };
}
