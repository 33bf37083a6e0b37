import { sql } from 'drizzle-orm';
import { eachDate, margin, resolveRange } from '../../../shared/domain/finance';
import { addDays, localDate, startOfLocalDate } from '../../../shared/domain/time';
import {
  MONEY_MESSAGES,
  ZCostMixRow,
  ZFinancePoint,
  ZFinanceRangeInput,
  ZFinanceSummary,
  ZTruckBreakdownRow,
} from '../../../shared/schemas/money';
import type { Context } from '../../context';
import { appError } from '../../errors';
import { roleProcedure, router } from '../../trpc';

const adminProcedure = roleProcedure('ADMIN');

function rangeOf(
  ctx: Pick<Context, 'now'>,
  input: { from?: string | undefined; to?: string | undefined } | undefined,
) {
  const range = resolveRange(localDate(ctx.now()), input?.from, input?.to);
  if (!range) throw appError('BAD_REQUEST', MONEY_MESSAGES.range);
  return range;
}

const kes = (cents: unknown) => Math.round(Number(cents ?? 0)) / 100;

/** Finance over Africa/Nairobi days, read from the finance_daily rollup (kept by triggers). */
export const financeRouter = router({
  summary: adminProcedure
    .input(ZFinanceRangeInput)
    .output(ZFinanceSummary)
    .query(async ({ ctx, input }) => {
      const { from, to } = rangeOf(ctx, input);
      const [row] = await ctx.deps.database.rows<{ revenue: number; orders: number; cost: number }>(sql`
        select coalesce(sum(revenue_cents), 0)::float8 as revenue, coalesce(sum(orders), 0)::int as orders,
               coalesce(sum(cost_cents), 0)::float8 as cost
        from finance_daily where day between ${from}::date and ${to}::date`);
      const revenue = kes(row?.revenue);
      const costTotal = kes(row?.cost);
      return {
        revenue,
        orders: Number(row?.orders ?? 0),
        costTotal,
        gross: Math.round((revenue - costTotal) * 100) / 100,
        from,
        to,
      };
    }),

  timeseries: adminProcedure
    .input(ZFinanceRangeInput)
    .output(ZFinancePoint.array())
    .query(async ({ ctx, input }) => {
      const { from, to } = rangeOf(ctx, input);
      const rows = await ctx.deps.database.rows<{ day: string | Date; revenue: number; cost: number }>(sql`
        select day::text as day, sum(revenue_cents)::float8 as revenue, sum(cost_cents)::float8 as cost
        from finance_daily where day between ${from}::date and ${to}::date group by day`);
      const byDay = new Map(rows.map((r) => [String(r.day).slice(0, 10), r]));
      return eachDate(from, to).map((date) => ({
        date,
        revenue: kes(byDay.get(date)?.revenue),
        cost: kes(byDay.get(date)?.cost),
      }));
    }),

  truckBreakdown: adminProcedure
    .input(ZFinanceRangeInput)
    .output(ZTruckBreakdownRow.array())
    .query(async ({ ctx, input }) => {
      const { from, to } = rangeOf(ctx, input);
      const rows = await ctx.deps.database.rows<{
        truck_id: string;
        plate: string | null;
        loads: number;
        revenue: number;
        cost: number;
      }>(sql`
        select f.truck_id, t.plate, sum(f.loads)::int as loads, sum(f.revenue_cents)::float8 as revenue, sum(f.cost_cents)::float8 as cost
        from finance_daily f left join trucks t on t.id = f.truck_id
        where f.day between ${from}::date and ${to}::date and f.truck_id <> ''
        group by f.truck_id, t.plate
        having sum(f.revenue_cents) <> 0 or sum(f.cost_cents) <> 0
        order by sum(f.revenue_cents) - sum(f.cost_cents) desc, f.truck_id`);
      return rows.map((r) => {
        const revenue = kes(r.revenue);
        const cost = kes(r.cost);
        const gross = Math.round((revenue - cost) * 100) / 100;
        return {
          truckId: r.truck_id,
          plate: r.plate,
          loads: Number(r.loads),
          revenue,
          cost,
          gross,
          margin: margin(gross, revenue),
        };
      });
    }),

  /** Cost mix by type over the range (the finance sub-panel), straight from non-voided costs. */
  costMix: adminProcedure
    .input(ZFinanceRangeInput)
    .output(ZCostMixRow.array())
    .query(async ({ ctx, input }) => {
      const { from, to } = rangeOf(ctx, input);
      const rows = await ctx.deps.database.rows<{ type: string; cents: number }>(sql`
        select type, sum(amount_cents)::float8 as cents from costs
        where voided_at is null and incurred_at >= ${startOfLocalDate(from).toISOString()}
          and incurred_at < ${startOfLocalDate(addDays(to, 1)).toISOString()}
        group by type order by cents desc`);
      return rows.map((r) => ({ type: r.type, amount: kes(r.cents) }));
    }),
});
