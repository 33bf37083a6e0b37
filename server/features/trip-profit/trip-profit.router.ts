import { tripProfit } from '../../../core/trip-profit/trip-profit.service';
import { ZTripProfitInput, ZTripProfitReport } from '../../../shared/schemas/trip-profit';
import { roleProcedure, router } from '../../trpc';

export const tripProfitRouter = router({
  list: roleProcedure('ADMIN')
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/finance/trips',
        summary:
          "Profit per delivered trip (revenue less fuel share, linked loading/offloading costs, driver allowance, county cess), the latest `limit` (default 100) listed, and per truck over every trip of the range, with the truck's costs that belong to no trip",
        example: { from: '2026-11-01', to: '2026-11-23' },
      },
    })
    .input(ZTripProfitInput)
    .output(ZTripProfitReport)
    .query(({ ctx, input }) => tripProfit(ctx.db, ctx.deps.settings, input, ctx.now())),
});
