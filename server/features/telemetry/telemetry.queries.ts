import { sql } from 'drizzle-orm';
import { nearestPlaceName } from '../../../shared/domain/distance';
import { idleMinutes } from '../../../shared/domain/telemetry';
import type { TTruckTelemetry } from '../../../shared/schemas/telemetry';
import type { Context } from '../../context';

interface Row {
  truck_id: string;
  plate: string | null;
  lat: number | null;
  lng: number | null;
  address: string | null;
  status: string | null;
  speed_kmh: number | null;
  fix_time: string | Date | null;
  last_moved_at: string | Date | null;
  driver_id: string | null;
  driver_name: string | null;
  driver_phone: string | null;
  driver_email: string | null;
}

/** Trucks with their latest position; `onlyDriver` limits to a driver's own trucks (primary or loaded). */
export async function truckTelemetry(
  ctx: Pick<Context, 'deps' | 'now'>,
  onlyDriver?: string,
): Promise<TTruckTelemetry[]> {
  const rows = await ctx.deps.database.rows<Row>(sql`
    select t.id as truck_id, t.plate, l.lat, l.lng, l.address, l.status, l.speed_kmh, l.fix_time, l.last_moved_at,
           d.id as driver_id, d.name as driver_name, d.phone as driver_phone, d.email as driver_email
    from trucks t
    left join truck_latest l on l.truck_id = t.id
    left join drivers d on d.id = t.primary_driver_id
    ${
      onlyDriver
        ? sql`where t.primary_driver_id = ${onlyDriver} or exists (
            select 1 from assignments a where a.truck_id = t.id and a.driver_id = ${onlyDriver} and a.status in ('SCHEDULED','IN_TRANSIT'))`
        : sql``
    }
    order by t.plate, t.id`);
  const now = ctx.now();
  return rows.map((r) => {
    const lastUpdated = r.fix_time ? new Date(r.fix_time) : null;
    const hasFix = r.lat !== null && r.lng !== null;
    return {
      truckId: r.truck_id,
      plate: r.plate,
      lat: r.lat,
      lng: r.lng,
      address: r.address ?? (hasFix ? nearestPlaceName({ lat: r.lat!, lng: r.lng! }) : null),
      status: r.status,
      speed: r.speed_kmh === null ? null : Math.round(r.speed_kmh * 10) / 10,
      idleMinutes: hasFix
        ? idleMinutes(r.last_moved_at ? new Date(r.last_moved_at) : null, lastUpdated, now)
        : null,
      lastUpdated: lastUpdated?.toISOString() ?? null,
      driverId: r.driver_id,
      driverName: r.driver_name,
      driverPhone: r.driver_phone,
      driverEmail: r.driver_email,
    };
  });
}
