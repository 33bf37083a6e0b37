import {
  costMix,
  financeSummary,
  financeTimeseries,
  truckBreakdown,
} from '../../../core/finance/finance.service';
import {
  ZCostMixRow,
  ZFinancePoint,
  ZFinanceRangeInput,
  ZFinanceSummary,
  ZTruckBreakdownRow,
} from '../../../shared/schemas/money';
import { roleProcedure, router } from '../../trpc';
import { tripProfitRouter } from '../trip-profit/trip-profit.router';

const adminProcedure = roleProcedure('ADMIN');
const rangeExample = { from: '2026-11-01', to: '2026-11-23' };

/** Finance over Africa/Nairobi days, read from the finance_daily rollup (kept by triggers). */
export const financeRouter = router({
  summary: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/finance/summary',
        summary: 'Revenue, orders, costs and gross (from, to)',
        example: rangeExample,
      },
    })
    .input(ZFinanceRangeInput)
    .output(ZFinanceSummary)
    .query(({ ctx, input }) => financeSummary(ctx.db, input, ctx.now())),

  timeseries: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/finance/timeseries',
        summary: 'Daily revenue and cost (from, to)',
        example: rangeExample,
      },
    })
    .input(ZFinanceRangeInput)
    .output(ZFinancePoint.array())
    .query(({ ctx, input }) => financeTimeseries(ctx.db, input, ctx.now())),

  truckBreakdown: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/finance/truck-breakdown',
        summary: 'Per-truck loads, revenue, costs, gross and margin (from, to)',
        example: rangeExample,
      },
    })
    .input(ZFinanceRangeInput)
    .output(ZTruckBreakdownRow.array())
    .query(({ ctx, input }) => truckBreakdown(ctx.db, input, ctx.now())),

  costMix: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/finance/cost-mix',
        summary: 'Costs by type (from, to)',
        example: rangeExample,
      },
    })
    .input(ZFinanceRangeInput)
    .output(ZCostMixRow.array())
    .query(({ ctx, input }) => costMix(ctx.db, input, ctx.now())),

  /** Profit per trip (issue 17). */
  trips: tripProfitRouter,
});
