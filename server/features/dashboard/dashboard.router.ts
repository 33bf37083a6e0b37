import { sql } from 'drizzle-orm';
import { dayRange, lastDaysRange } from '../../../shared/domain/time';
import { ZDashboard } from '../../../shared/schemas/dashboard';
import { roleProcedure, router } from '../../trpc';
import { stockSummary } from '../stock/stock.queries';

const cents = (n: number | null | undefined) => Math.round(Number(n ?? 0)) / 100;

export const dashboardRouter = router({
  /** The overview over Africa/Nairobi days: revenue from delivered loads, costs that are not voided. */
  get: roleProcedure('ADMIN')
    .output(ZDashboard)
    .query(async ({ ctx }) => {
      const now = ctx.now();
      const today = dayRange(now);
      const week = lastDaysRange(now, 7);
      const rows = ctx.deps.database.rows.bind(ctx.deps.database);
      const revenueBetween = (start: Date, end: Date) => sql`
        select coalesce(sum(o.per_truck_cents * a.tonnes / 20), 0)::float8 as cents
        from assignments a join orders o on o.id = a.order_id
        where a.status = 'DELIVERED' and a.delivered_at >= ${start.toISOString()} and a.delivered_at < ${end.toISOString()}`;
      const costsBetween = (start: Date, end: Date) => sql`
        select coalesce(sum(amount_cents), 0)::float8 as cents from costs
        where voided_at is null and incurred_at >= ${start.toISOString()} and incurred_at < ${end.toISOString()}`;

      const [stock, [counts], [revToday], [costToday], [revWeek], [costWeek], perTruck, drivers] =
        await Promise.all([
          stockSummary(ctx),
          rows<{ pending: number; active: number }>(sql`
          select (select count(*) from orders where status in ('AWAITING_PAYMENT','PAYMENT_REVIEW','RECEIVED','IN_TRANSIT'))::int as pending,
                 (select count(*) from assignments where status in ('SCHEDULED','IN_TRANSIT'))::int as active`),
          rows<{ cents: number }>(revenueBetween(today.start, today.end)),
          rows<{ cents: number }>(costsBetween(today.start, today.end)),
          rows<{ cents: number }>(revenueBetween(week.start, week.end)),
          rows<{ cents: number }>(costsBetween(week.start, week.end)),
          rows<{ truck_id: string; plate: string | null; cents: number }>(sql`
          select c.truck_id, t.plate, sum(c.amount_cents)::float8 as cents
          from costs c left join trucks t on t.id = c.truck_id
          where c.voided_at is null and c.truck_id is not null
            and c.incurred_at >= ${today.start.toISOString()} and c.incurred_at < ${today.end.toISOString()}
          group by c.truck_id, t.plate order by cents desc`),
          rows<{ driver_id: string; name: string; tonnes: number; cents: number }>(sql`
          select a.driver_id, d.name, sum(a.tonnes)::float8 as tonnes, sum(o.per_truck_cents * a.tonnes / 20)::float8 as cents
          from assignments a join orders o on o.id = a.order_id join drivers d on d.id = a.driver_id
          where a.status = 'DELIVERED' and a.delivered_at >= ${week.start.toISOString()} and a.delivered_at < ${week.end.toISOString()}
          group by a.driver_id, d.name order by cents desc, tonnes desc limit 5`),
        ]);
      return {
        stock: stock.tonnes,
        yardName: stock.yard_name,
        pendingOrders: counts?.pending ?? 0,
        activeAssignments: counts?.active ?? 0,
        daily: {
          revenue: cents(revToday?.cents),
          profit: cents((revToday?.cents ?? 0) - (costToday?.cents ?? 0)),
        },
        weekly: {
          revenue: cents(revWeek?.cents),
          profit: cents((revWeek?.cents ?? 0) - (costWeek?.cents ?? 0)),
        },
        expensesPerTruck: perTruck.map((r) => ({
          truckId: r.truck_id,
          plate: r.plate,
          amount: cents(r.cents),
        })),
        topDrivers: drivers.map((r) => ({
          driverId: r.driver_id,
          name: r.name,
          tonnes: Number(r.tonnes),
          revenue: cents(r.cents),
        })),
      };
    }),
});
