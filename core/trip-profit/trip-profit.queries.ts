import { sql } from 'drizzle-orm';
import { type DbOrTx, rows } from '../../drizzle/db';
import { BUSINESS_TIME_ZONE } from '../../shared/constants';

export interface ProfitRow {
  assignment_id: number;
  order_id: number;
  site: string;
  truck_id: string;
  plate: string | null;
  delivered_at: string;
  revenue_cents: string;
  distance_km: string;
  linked_cents: string;
  /** The trip's GPS km from its rollup (trip_km), null without a tracked yard exit and entry. */
  gps_km: number | null;
  cents_per_litre: number | null;
}

/**
 * Loads delivered on the range's Nairobi days with their revenue, linked costs, fuel price and GPS km from the
 * per-trip rollup (never the raw fixes: their cost grows with history and retention drops them).
 */
export function deliveredForProfit(db: DbOrTx, from: string, to: string) {
  return rows<ProfitRow>(
    db,
    sql`select dl.assignment_id, dl.order_id, o.site, dl.truck_id, t.plate, dl.delivered_at, dl.revenue_cents,
               o.distance_km,
               (select coalesce(sum(c.amount_cents), 0) from costs c
                 where c.assignment_id = dl.assignment_id and c.voided_at is null) as linked_cents,
               tk.km as gps_km,
               (select (f.cost_cents / f.litres)::float8 from fuel_logs f
                 where f.truck_id = dl.truck_id and f.voided_at is null and f.litres > 0 and f.cost_cents > 0
                   and f.captured_at <= dl.delivered_at
                 order by f.captured_at desc, f.id desc limit 1) as cents_per_litre
        from delivered_loads dl
        join orders o on o.id = dl.order_id
        left join trucks t on t.id = dl.truck_id
        left join trip_km tk on tk.assignment_id = dl.assignment_id
        where dl.day between ${from}::date and ${to}::date
          -- The same days as instants, so the delivered-at index bounds the scan (not every load ever).
          and dl.delivered_at >= (${from}::date::timestamp at time zone ${BUSINESS_TIME_ZONE})
          and dl.delivered_at < ((${to}::date + 1)::timestamp at time zone ${BUSINESS_TIME_ZONE})
        order by dl.delivered_at, dl.assignment_id`,
  );
}

/** Non-voided costs per truck on the range's Nairobi days (the ledger the truck breakdown sums). */
export function truckCosts(db: DbOrTx, from: string, to: string) {
  return rows<{ truck_id: string; plate: string | null; cents: string }>(
    db,
    sql`select c.truck_id, t.plate, sum(c.amount_cents)::text as cents
        from costs c left join trucks t on t.id = c.truck_id
        where c.voided_at is null and c.truck_id is not null
          and finance_day(c.incurred_at) between ${from}::date and ${to}::date
          and c.incurred_at >= (${from}::date::timestamp at time zone ${BUSINESS_TIME_ZONE})
          and c.incurred_at < ((${to}::date + 1)::timestamp at time zone ${BUSINESS_TIME_ZONE})
        group by c.truck_id, t.plate`,
  );
}

/**
 * Per truck, its last `limit` live fuel logs captured before the instant given for it (litres and the GPS km
 * stored on each log), latest first: the fill history of every truck of a report in one statement.
 */
export function recentFills(db: DbOrTx, trucks: Array<{ truckId: string; at: string }>, limit = 20) {
  return rows<{ truck_id: string; litres: string; gps_km: number | null }>(
    db,
    sql`select t.truck_id, f.litres, f.gps_km
        from jsonb_to_recordset(${JSON.stringify(trucks.map((t) => ({ truck_id: t.truckId, at: t.at })))}::jsonb)
          as t(truck_id text, at timestamptz)
        cross join lateral (
          select l.litres, l.gps_km, l.captured_at, l.id from fuel_logs l
          where l.truck_id = t.truck_id and l.voided_at is null and l.captured_at < t.at
          order by l.captured_at desc, l.id desc limit ${limit}) f
        order by t.truck_id, f.captured_at desc, f.id desc`,
  );
}
