import { sql } from 'drizzle-orm';
import { type DbOrTx, rows } from '../../../drizzle/db';

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
  yard_exit: string | null;
  yard_entry: string | null;
  cents_per_litre: number | null;
}

/** Loads delivered on the range's Nairobi days with their revenue, linked costs, trip events and fuel price. */
export function deliveredForProfit(db: DbOrTx, from: string, to: string) {
  return rows<ProfitRow>(
    db,
    sql`select dl.assignment_id, dl.order_id, o.site, dl.truck_id, t.plate, dl.delivered_at, dl.revenue_cents,
               o.distance_km,
               (select coalesce(sum(c.amount_cents), 0) from costs c
                 where c.assignment_id = dl.assignment_id and c.voided_at is null) as linked_cents,
               (select min(g.at) from geofence_events g where g.assignment_id = dl.assignment_id and g.kind = 'YARD_EXIT') as yard_exit,
               (select min(g.at) from geofence_events g where g.assignment_id = dl.assignment_id and g.kind = 'YARD_ENTRY') as yard_entry,
               (select (f.cost_cents / f.litres)::float8 from fuel_logs f
                 where f.truck_id = dl.truck_id and f.voided_at is null and f.litres > 0 and f.cost_cents > 0
                   and f.captured_at <= dl.delivered_at
                 order by f.captured_at desc, f.id desc limit 1) as cents_per_litre
        from delivered_loads dl
        join orders o on o.id = dl.order_id
        left join trucks t on t.id = dl.truck_id
        where dl.day between ${from}::date and ${to}::date
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
        group by c.truck_id, t.plate`,
  );
}
