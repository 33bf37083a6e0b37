import { sql } from 'drizzle-orm';
import { type DbOrTx, rows } from '../../drizzle/db';
import { driverOwnsLoadSql } from '../access/access.queries';

export interface TripRow {
  id: number;
  order_id: number;
  site: string;
  truck_id: string;
  plate: string | null;
  driver_id: string | null;
  driver_name: string | null;
  delivered_at: string;
  planned_at: string;
  prev_yard_entry: string | null;
  yard_exit: string | null;
  site_entry: string | null;
  site_exit: string | null;
  yard_entry: string | null;
}

/** Loads delivered since `from` with their geofence events (issue 16) and the truck's yard arrival before. */
export function deliveredTrips(db: DbOrTx, from: Date, driverId: string | null) {
  return rows<TripRow>(
    db,
    sql`select a.id, a.order_id, o.site, a.truck_id, t.plate, a.driver_id, d.name as driver_name,
               a.delivered_at, coalesce(a.scheduled_at, a.created_at) as planned_at,
               ev.yard_exit, ev.site_entry, ev.site_exit, ev.yard_entry,
               (select max(g.at) from geofence_events g
                 where g.truck_id = a.truck_id and g.kind = 'YARD_ENTRY' and g.at <= ev.yard_exit) as prev_yard_entry
        from assignments a
        join orders o on o.id = a.order_id
        left join trucks t on t.id = a.truck_id
        left join drivers d on d.id = a.driver_id
        cross join lateral (
          select min(at) filter (where kind = 'YARD_EXIT') as yard_exit,
                 min(at) filter (where kind = 'SITE_ENTRY') as site_entry,
                 max(at) filter (where kind = 'SITE_EXIT') as site_exit,
                 min(at) filter (where kind = 'YARD_ENTRY') as yard_entry
          from geofence_events where assignment_id = a.id) ev
        where a.status = 'DELIVERED' and a.delivered_at >= ${from.toISOString()}
          and ${driverId === null ? sql`true` : driverOwnsLoadSql(driverId, 'a')}
        order by a.delivered_at desc, a.id desc`,
  );
}
