import type { DbOrTx } from '../../drizzle/db';
import { type CycleTimes, cycleTimes, medians, slowCause } from '../../shared/domain/cycle-times';
import type { TDriverTrips, TTrip, TTripsInput, TTripsReport } from '../../shared/schemas/trips';
import type { CtxUser } from '../access/actor';
import { linkedDriver } from '../access/rules';
import { appError } from '../errors';
import { deliveredTrips, type TripRow } from './trips.queries';

const SLOWEST = 3;
const date = (v: string | null) => (v ? new Date(v) : null);

function toTrip(r: TripRow): { trip: TTrip; minutes: CycleTimes } {
  const minutes = cycleTimes({
    plannedAt: new Date(r.planned_at),
    prevYardEntry: date(r.prev_yard_entry),
    yardExit: date(r.yard_exit),
    siteEntry: date(r.site_entry),
    siteExit: date(r.site_exit),
    yardEntry: date(r.yard_entry),
  });
  return {
    minutes,
    trip: {
      assignmentId: Number(r.id),
      orderId: Number(r.order_id),
      site: r.site,
      truckId: r.truck_id,
      plate: r.plate,
      driverId: r.driver_id,
      driverName: r.driver_name,
      deliveredAt: new Date(r.delivered_at).toISOString(),
      minutes,
      cause: null,
    },
  };
}

const since = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000);

/** Delivered loads of the last 7 or 30 days per truck or driver: medians, and the slowest with causes. */
export async function tripsReport(db: DbOrTx, input: TTripsInput, now: Date): Promise<TTripsReport> {
  const days = input?.days ?? 7;
  const by = input?.by ?? 'truck';
  const all = (await deliveredTrips(db, since(now, days), null)).map(toTrip);
  const groups = new Map<string, { name: string; list: typeof all }>();
  for (const t of all) {
    const key = by === 'truck' ? t.trip.truckId : (t.trip.driverId ?? '—');
    const name = by === 'truck' ? (t.trip.plate ?? t.trip.truckId) : (t.trip.driverName ?? 'No driver');
    const g = groups.get(key) ?? { name, list: [] };
    g.list.push(t);
    groups.set(key, g);
  }
  return {
    days,
    by,
    medians: medians(all.map((t) => t.minutes)),
    groups: [...groups.entries()]
      .map(([key, g]) => {
        const usual = medians(g.list.map((t) => t.minutes));
        const slowest = g.list
          .filter((t) => t.minutes.total !== null)
          .sort((a, b) => b.minutes.total! - a.minutes.total!)
          .slice(0, SLOWEST)
          .map((t) => ({ ...t.trip, cause: slowCause(t.minutes, usual) }));
        return { key, name: g.name, trips: g.list.length, medians: usual, slowest };
      })
      .sort((a, b) => b.trips - a.trips || a.name.localeCompare(b.name)),
  };
}

/** The signed-in driver's own trips. */
export async function driverTrips(
  db: DbOrTx,
  user: CtxUser,
  input: { days?: 7 | 30 } | undefined,
  now: Date,
): Promise<TDriverTrips> {
  const days = input?.days ?? 7;
  const driverId = linkedDriver(user);
  if (!driverId) throw appError('NOT_FOUND', 'No driver is linked to this account.');
  const list = (await deliveredTrips(db, since(now, days), driverId)).map(toTrip);
  const usual = medians(list.map((t) => t.minutes));
  return {
    days,
    medians: usual,
    trips: list.map((t) => ({ ...t.trip, cause: slowCause(t.minutes, usual) })),
  };
}
