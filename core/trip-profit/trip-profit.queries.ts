import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, rows } from '../../drizzle/db';
import { BUSINESS_TIME_ZONE } from '../../shared/constants';

export interface ProfitRow {
  assignment_id: number;
  order_id: number;
  site: string;
  truck_id: string;
  plate: string | null;
  delivered_at: string;
  /** delivered_at in microseconds since 1970 (exact: a fill the same millisecond is told apart). */
  delivered_us: string;
  revenue_cents: string;
  distance_km: string;
  linked_cents: string;
  /** The trip's GPS km from its rollup (trip_km), null without a tracked yard exit and entry. */
  gps_km: number | null;
}

const micros = (column: SQL) => sql`(extract(epoch from ${column}) * 1000000)::int8`;

/** The range's Nairobi days as instants: from its first midnight up to (not including) the day after it. */
const rangeInstants = (column: SQL, from: string, to: string) =>
  sql`${column} >= (${from}::date::timestamp at time zone ${BUSINESS_TIME_ZONE})
      and ${column} < ((${to}::date + 1)::timestamp at time zone ${BUSINESS_TIME_ZONE})`;

/**
 * Loads delivered on the range's Nairobi days with their revenue, linked costs and GPS km: one range scan of
 * the per-trip rollup (trip_facts, kept by triggers; never the raw fixes, whose cost grows with history and
 * which retention drops).
 */
export function deliveredForProfit(db: DbOrTx, from: string, to: string) {
  return rows<ProfitRow>(
    db,
    sql`select f.assignment_id, f.order_id, f.site, f.truck_id, t.plate, f.delivered_at,
               ${micros(sql`f.delivered_at`)} as delivered_us, f.revenue_cents,
               f.distance_km, f.linked_cents, f.gps_km
        from trip_facts f
        left join trucks t on t.id = f.truck_id
        where ${rangeInstants(sql`f.delivered_at`, from, to)}
        order by f.delivered_at, f.assignment_id`,
  );
}

/**
 * Per truck, the price per litre of each live, priced fill it could have been running on between `from` and
 * `to` (µs since 1970): its last fill before `from` and every fill up to `to`, oldest first (ties by id), for
 * `priceAt`.
 */
export function fillPrices(db: DbOrTx, truckIds: string[], fromUs: string, toUs: string) {
  const from = sql`(timestamptz 'epoch' + ${fromUs}::int8 * interval '1 microsecond')`;
  const to = sql`(timestamptz 'epoch' + ${toUs}::int8 * interval '1 microsecond')`;
  return rows<{ truck_id: string; captured_us: string; cents_per_litre: number }>(
    db,
    sql`select t.truck_id, ${micros(sql`p.captured_at`)} as captured_us, p.cents_per_litre
        from jsonb_array_elements_text(${JSON.stringify(truckIds)}::jsonb) as t(truck_id)
        cross join lateral (
          (select f.captured_at, f.id, (f.cost_cents / f.litres)::float8 as cents_per_litre from fuel_logs f
            where f.truck_id = t.truck_id and f.voided_at is null and f.litres > 0 and f.cost_cents > 0
              and f.captured_at < ${from}
            order by f.captured_at desc, f.id desc limit 1)
          union all
          (select f.captured_at, f.id, (f.cost_cents / f.litres)::float8 from fuel_logs f
            where f.truck_id = t.truck_id and f.voided_at is null and f.litres > 0 and f.cost_cents > 0
              and f.captured_at >= ${from} and f.captured_at <= ${to})) p
        order by t.truck_id, p.captured_at, p.id`,
  );
}

/** Non-voided costs per truck on the range's Nairobi days (the ledger the truck breakdown sums). */
export function truckCosts(db: DbOrTx, from: string, to: string) {
  return rows<{ truck_id: string; plate: string | null; cents: string }>(
    db,
    sql`select c.truck_id, t.plate, sum(c.amount_cents)::text as cents
        from costs c left join trucks t on t.id = c.truck_id
        where c.voided_at is null and c.truck_id is not null
          and ${rangeInstants(sql`c.incurred_at`, from, to)}
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
