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

/**
 * Loads delivered since `from` with their geofence events (issue 16) and the truck's yard arrival before: one
 * range scan of the per-trip rollup (trip_facts, kept by triggers), not a look-up per trip in five tables.
 */
export function deliveredTrips(db: DbOrTx, from: Date, driverId: string | null) {
  return rows<TripRow>(
    db,
    sql`select a.assignment_id as id, a.order_id, a.site, a.truck_id, t.plate, a.driver_id, d.name as driver_name,
               a.delivered_at, a.planned_at, a.prev_yard_entry_at as prev_yard_entry, a.yard_exit_at as yard_exit,
               a.site_entry_at as site_entry, a.site_exit_at as site_exit, a.yard_entry_at as yard_entry
        from trip_facts a
        left join trucks t on t.id = a.truck_id
        left join drivers d on d.id = a.driver_id
        where a.delivered_at >= ${from.toISOString()}
          and ${driverId === null ? sql`true` : driverOwnsLoadSql(driverId, 'a')}
        order by a.delivered_at desc, a.assignment_id desc`,
  );
}
