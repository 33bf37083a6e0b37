import { sql } from 'drizzle-orm';
import { type DbOrTx, rows as sqlRows } from '../../drizzle/db';
import { driverOwnsTruckSql } from '../access/access.queries';

export interface TruckPositionRow {
  truck_id: string;
  plate: string | null;
  lat: number | null;
  lng: number | null;
  address: string | null;
  status: string | null;
  speed_kmh: number | null;
  fix_time: string | Date | null;
  last_moved_at: string | Date | null;
  battery: number | null;
  last_seen_at: string | Date | null;
  driver_id: string | null;
  driver_name: string | null;
  driver_phone: string | null;
  driver_email: string | null;
}

/** Trucks with their latest position; `onlyDriver` limits to a driver's own trucks (primary or loaded). */
export function truckPositionRows(db: DbOrTx, onlyDriver?: string) {
  return sqlRows<TruckPositionRow>(
    db,
    sql`
    select t.id as truck_id, t.plate, l.lat, l.lng, l.address, l.status, l.speed_kmh, l.fix_time, l.last_moved_at,
           -- Before its first fix a device's heartbeats are in truck_seen.
           case when s.last_seen_at > coalesce(l.last_seen_at, l.fix_time, '-infinity') then coalesce(s.battery, l.battery)
                else coalesce(l.battery, s.battery) end as battery,
           greatest(l.last_seen_at, s.last_seen_at) as last_seen_at,
           d.id as driver_id, d.name as driver_name, d.phone as driver_phone, d.email as driver_email
    from trucks t
    left join truck_latest l on l.truck_id = t.id
    left join truck_seen s on s.truck_id = t.id
    left join drivers d on d.id = t.primary_driver_id
    ${onlyDriver ? sql`where ${driverOwnsTruckSql(onlyDriver, 't')}` : sql``}
    order by t.plate, t.id`,
  );
}

/** Every tracker's device id with its truck. */
export function deviceTrucks(db: DbOrTx) {
  return sqlRows<{ id: string; device_id: string }>(
    db,
    sql`select id, device_id from trucks where device_id is not null`,
  );
}
