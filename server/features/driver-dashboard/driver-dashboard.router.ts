import { eq, sql } from 'drizzle-orm';
import { drivers } from '../../../drizzle/schema';
import { loadRevenue } from '../../../shared/domain/assignments';
import { weekRange } from '../../../shared/domain/time';
import { ZDriver, ZDriverProfileInput } from '../../../shared/schemas/fleet';
import {
  DRIVER_MESSAGES,
  type TDriverDashboard,
  ZDriverDashboard,
  ZDriverDashboardInput,
} from '../../../shared/schemas/telemetry';
import type { Context } from '../../context';
import { appError } from '../../errors';
import { roleProcedure, router } from '../../trpc';
import { updateDriverProfile } from '../drivers/drivers.service';
import { truckTelemetry } from '../telemetry/telemetry.queries';

const kes = (cents: unknown) => Math.round(Number(cents ?? 0)) / 100;

async function dashboardFor(
  ctx: Pick<Context, 'deps' | 'db' | 'now'>,
  driverId: string,
): Promise<TDriverDashboard> {
  const [driver] = await ctx.db.select().from(drivers).where(eq(drivers.id, driverId)).limit(1);
  if (!driver) throw appError('NOT_FOUND', DRIVER_MESSAGES.unknownDriver);
  const now = ctx.now();
  const week = weekRange(now);
  const prev = weekRange(now, 1);
  const rows = ctx.deps.database.rows.bind(ctx.deps.database);
  const delivered = (start: Date, end: Date) => sql`
    select count(*)::int as loads, coalesce(sum(a.tonnes), 0)::float8 as tonnes,
           coalesce(sum(o.per_truck_cents * a.tonnes / 20), 0)::float8 as cents
    from assignments a join orders o on o.id = a.order_id
    where a.driver_id = ${driverId} and a.status = 'DELIVERED'
      and a.delivered_at >= ${start.toISOString()} and a.delivered_at < ${end.toISOString()}`;
  const [[thisWeek], [lastWeek], board, recent, telemetry] = await Promise.all([
    rows<{ loads: number; tonnes: number; cents: number }>(delivered(week.start, week.end)),
    rows<{ loads: number; tonnes: number; cents: number }>(delivered(prev.start, prev.end)),
    rows<{ driver_id: string; name: string; cents: number }>(sql`
      select a.driver_id, d.name, sum(o.per_truck_cents * a.tonnes / 20)::float8 as cents
      from assignments a join orders o on o.id = a.order_id join drivers d on d.id = a.driver_id
      where a.status = 'DELIVERED' and a.delivered_at >= ${week.start.toISOString()} and a.delivered_at < ${week.end.toISOString()}
      group by a.driver_id, d.name order by cents desc, d.name`),
    rows<{
      id: number;
      site: string;
      plate: string | null;
      truck_id: string | null;
      status: string;
      tonnes: number;
      per_truck_cents: number;
      scheduled_at: string | Date | null;
    }>(sql`
      select a.id, o.site, t.plate, a.truck_id, a.status, a.tonnes::float8 as tonnes, o.per_truck_cents::float8 as per_truck_cents, a.scheduled_at
      from assignments a join orders o on o.id = a.order_id left join trucks t on t.id = a.truck_id
      where a.driver_id = ${driverId}
      order by coalesce(a.scheduled_at, a.created_at) desc, a.id desc limit 10`),
    truckTelemetry(ctx, driverId),
  ]);
  const loads = thisWeek?.loads ?? 0;
  const tonnes = thisWeek?.tonnes ?? 0;
  const average = loads ? tonnes / loads : 0;
  const prevAverage = lastWeek?.loads ? lastWeek.tonnes / lastWeek.loads : 0;
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
      weeklyRevenue: kes(thisWeek?.cents),
      previousWeekRevenue: kes(lastWeek?.cents),
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
      estimatedRevenue: loadRevenue(Number(a.per_truck_cents) / 100, Number(a.tonnes)),
      scheduledAt: a.scheduled_at ? new Date(a.scheduled_at).toISOString() : null,
    })),
    leaderboard: board
      .slice(0, 5)
      .map((b) => ({ driverId: b.driver_id, name: b.name, revenue: kes(b.cents) })),
    telemetry: telemetry.map(({ driverId: _d, driverName: _n, driverPhone: _p, driverEmail: _e, ...t }) => t),
  };
}

export const driverDashboardRouter = router({
  /** A DRIVER sees only their own linked driver; ADMIN any (the page's driver picker). */
  dashboard: roleProcedure('DRIVER', 'ADMIN')
    .input(ZDriverDashboardInput)
    .output(ZDriverDashboard)
    .query(({ ctx, input }) => {
      if (ctx.user.role === 'DRIVER') {
        if (!ctx.user.driverId) throw appError('FORBIDDEN', DRIVER_MESSAGES.notLinked);
        if (input?.driverId && input.driverId !== ctx.user.driverId)
          throw appError('FORBIDDEN', DRIVER_MESSAGES.notYours);
        return dashboardFor(ctx, ctx.user.driverId);
      }
      if (!input?.driverId) throw appError('BAD_REQUEST', DRIVER_MESSAGES.pickDriver);
      return dashboardFor(ctx, input.driverId);
    }),

  /** The signed-in driver's own details, ID photo and profile photo. */
  updateProfile: roleProcedure('DRIVER')
    .input(ZDriverProfileInput)
    .output(ZDriver)
    .mutation(({ ctx, input }) => {
      if (!ctx.user.driverId) throw appError('FORBIDDEN', DRIVER_MESSAGES.notLinked);
      return updateDriverProfile(ctx.db, ctx.deps.config, ctx.user.driverId, input, ctx.now());
    }),
});
