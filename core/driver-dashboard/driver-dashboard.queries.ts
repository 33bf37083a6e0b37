import { asc, eq, sql } from 'drizzle-orm';
import { type DbOrTx, rows as sqlRows } from '../../drizzle/db';
import { drivers } from '../../drizzle/schema';
import type { AssignmentStatus } from '../../shared/enums';
import { driverOwnsLoadSql } from '../access/access.queries';

/** The first driver of the directory, in the directory's order (by name). */
export async function firstDriverId(db: DbOrTx) {
  const [row] = await db
    .select({ id: drivers.id })
    .from(drivers)
    .orderBy(asc(drivers.name), asc(drivers.id))
    .limit(1);
  return row?.id;
}

export async function findDriver(db: DbOrTx, driverId: string) {
  const [row] = await db.select().from(drivers).where(eq(drivers.id, driverId)).limit(1);
  return row;
}

export interface Totals {
  loads: number;
  tonnes: number;
  cents: number;
}

/**
 * A driver's delivered loads, tonnes and revenue in two runs of Nairobi dates, [lastFrom, thisFrom) and
 * [thisFrom, thisTo], from driver_daily in one read.
 */
export async function weekTotals(
  db: DbOrTx,
  driverId: string,
  lastFrom: string,
  thisFrom: string,
  thisTo: string,
): Promise<{ thisWeek: Totals; lastWeek: Totals }> {
  const [row] = await sqlRows<Record<string, number>>(
    db,
    sql`
    select coalesce(sum(loads) filter (where day >= ${thisFrom}::date), 0)::int as loads,
           coalesce(sum(tonnes) filter (where day >= ${thisFrom}::date), 0)::float8 as tonnes,
           coalesce(sum(revenue_cents) filter (where day >= ${thisFrom}::date), 0)::float8 as cents,
           coalesce(sum(loads) filter (where day < ${thisFrom}::date), 0)::int as last_loads,
           coalesce(sum(tonnes) filter (where day < ${thisFrom}::date), 0)::float8 as last_tonnes,
           coalesce(sum(revenue_cents) filter (where day < ${thisFrom}::date), 0)::float8 as last_cents
    from driver_daily
    where driver_id = ${driverId} and day between ${lastFrom}::date and ${thisTo}::date`,
  );
  const n = (v: unknown) => Number(v ?? 0);
  return {
    thisWeek: { loads: n(row?.loads), tonnes: n(row?.tonnes), cents: n(row?.cents) },
    lastWeek: { loads: n(row?.last_loads), tonnes: n(row?.last_tonnes), cents: n(row?.last_cents) },
  };
}

/** Every driver with a delivered load over Nairobi dates [from, to], most revenue first, from driver_daily. */
export function revenueBoard(db: DbOrTx, from: string, to: string) {
  return sqlRows<{ driver_id: string; name: string; cents: number }>(
    db,
    sql`
    select r.driver_id, d.name, sum(r.revenue_cents)::float8 as cents
    from driver_daily r join drivers d on d.id = r.driver_id
    where r.day between ${from}::date and ${to}::date
    group by r.driver_id, d.name having sum(r.loads) > 0
    order by cents desc, d.name, r.driver_id`,
  );
}

/**
 * A driver's ten latest loads, whatever their status, with what each earns once delivered (read backwards
 * along assignments_driver_recent_idx).
 */
export function recentLoads(db: DbOrTx, driverId: string) {
  return sqlRows<{
    id: number;
    site: string;
    plate: string | null;
    truck_id: string | null;
    status: AssignmentStatus;
    tonnes: number;
    revenue_cents: number;
    scheduled_at: string | Date | null;
    customer_name: string;
    customer_phone: string;
    site_lat: number | null;
    site_lng: number | null;
  }>(
    db,
    sql`
    select a.id, o.site, t.plate, a.truck_id, a.status, a.tonnes::float8 as tonnes,
           load_revenue_cents(o.per_truck_cents, a.tonnes)::float8 as revenue_cents, a.scheduled_at,
           o.name as customer_name, o.phone as customer_phone, o.site_lat, o.site_lng
    from assignments a join orders o on o.id = a.order_id left join trucks t on t.id = a.truck_id
    where ${driverOwnsLoadSql(driverId, 'a')}
    order by coalesce(a.scheduled_at, a.created_at) desc, a.id desc limit 10`,
  );
}
