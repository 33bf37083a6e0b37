import type { DbOrTx } from '../../drizzle/db';
import { fromCents } from '../../shared/domain/money';
import { addDays, localDate, weekRange } from '../../shared/domain/time';
import { isOpenLoad } from '../../shared/enums';
import type { TDriver, TDriverProfileInput } from '../../shared/schemas/fleet';
import { DRIVER_MESSAGES, type TDriverDashboard } from '../../shared/schemas/telemetry';
import type { Settings } from '../../shared/settings';
import type { CtxUser } from '../access/actor';
import { driverRows, linkedDriver } from '../access/rules';
import { updateDriverProfile } from '../drivers/drivers.service';
import { appError } from '../errors';
import { truckTelemetry } from '../telemetry/telemetry.service';
import * as q from './driver-dashboard.queries';

/**
 * Whose dashboard: a DRIVER only their own linked driver; ADMIN the one picked, or — on a first visit,
 * before the page knows the drivers — the first of the directory (the spec's default), so the page
 * needs one request, not two in a row.
 */
async function dashboardDriverId(db: DbOrTx, user: CtxUser, requested: string | undefined): Promise<string> {
  const rows = driverRows(user, requested);
  if (!rows.ok)
    throw appError(
      'FORBIDDEN',
      rows.reason === 'not-linked' ? DRIVER_MESSAGES.notLinked : DRIVER_MESSAGES.notYours,
    );
  if (rows.driverId) return rows.driverId;
  const first = await q.firstDriverId(db);
  if (!first) throw appError('BAD_REQUEST', DRIVER_MESSAGES.pickDriver);
  return first;
}

/** The Nairobi dates, Monday to Sunday, of the business week containing `now`. */
function weekDates(now: Date): { from: string; to: string } {
  const from = localDate(weekRange(now).start);
  return { from, to: addDays(from, 6) };
}

/** A driver's week (Monday first, Nairobi): delivered loads and revenue, rank, trend, recent loads, trucks. */
export async function driverDashboard(
  db: DbOrTx,
  user: CtxUser,
  requested: string | undefined,
  now: Date,
): Promise<TDriverDashboard> {
  const driverId = await dashboardDriverId(db, user, requested);
  const week = weekDates(now);
  // All reads at once (each is small); an unknown driver is answered once they are back.
  const [driver, { thisWeek, lastWeek }, board, recent, telemetry] = await Promise.all([
    q.findDriver(db, driverId),
    q.weekTotals(db, driverId, addDays(week.from, -7), week.from, week.to),
    q.revenueBoard(db, week.from, week.to),
    q.recentLoads(db, driverId),
    truckTelemetry(db, now, driverId),
  ]);
  if (!driver) throw appError('NOT_FOUND', DRIVER_MESSAGES.unknownDriver);
  const loads = thisWeek.loads;
  const tonnes = thisWeek.tonnes;
  const average = loads ? tonnes / loads : 0;
  const prevAverage = lastWeek.loads ? lastWeek.tonnes / lastWeek.loads : 0;
  const rankIndex = board.findIndex((b) => b.driver_id === driverId);
  return {
    driverId,
    driverName: driver.name,
    driver: {
      id: driver.id,
      name: driver.name,
      email: driver.email,
      phone: driver.phone,
      nationalIdPath: driver.nationalIdPath,
      photoPath: driver.photoPath,
    },
    rank: rankIndex >= 0 ? rankIndex + 1 : null,
    summary: {
      loadsDelivered: loads,
      tonnesDelivered: Math.round(tonnes * 100) / 100,
      weeklyRevenue: fromCents(thisWeek.cents),
      previousWeekRevenue: fromCents(lastWeek.cents),
      averageTonnesPerLoad: Math.round(average * 10) / 10,
      trend: prevAverage ? (average - prevAverage) / prevAverage : null,
    },
    assignments: recent.map((a) => ({
      id: a.id,
      site: a.site,
      plate: a.plate,
      truckId: a.truck_id,
      status: a.status,
      tonnes: Number(a.tonnes),
      estimatedRevenue: fromCents(a.revenue_cents),
      scheduledAt: a.scheduled_at ? new Date(a.scheduled_at).toISOString() : null,
      // The customer's details go with the job while it is open, not into the driver's history.
      customerName: isOpenLoad(a.status) ? a.customer_name : null,
      customerPhone: isOpenLoad(a.status) && a.customer_phone ? a.customer_phone : null,
      sitePoint: a.site_lat !== null && a.site_lng !== null ? { lat: a.site_lat, lng: a.site_lng } : null,
    })),
    leaderboard: board
      .slice(0, 5)
      .map((b) => ({ driverId: b.driver_id, name: b.name, revenue: fromCents(b.cents) })),
    telemetry: telemetry.map(({ driverId: _d, driverName: _n, driverPhone: _p, driverEmail: _e, ...t }) => t),
  };
}

/** The signed-in driver's own details and photos. */
export function updateOwnProfile(
  db: DbOrTx,
  settings: Settings,
  user: CtxUser,
  input: TDriverProfileInput,
  now: Date,
): Promise<TDriver> {
  const driverId = linkedDriver(user);
  if (!driverId) throw appError('FORBIDDEN', DRIVER_MESSAGES.notLinked);
  return updateDriverProfile(db, settings, driverId, input, now);
}
