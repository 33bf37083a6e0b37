import { driverTrips, tripsReport } from '../../../core/trips/trips.service';
import { ZDriverTrips, ZDriverTripsInput, ZTripsInput, ZTripsReport } from '../../../shared/schemas/trips';
import { roleProcedure, router } from '../../trpc';

export const tripsRouter = router({
  report: roleProcedure('ADMIN', 'OPS')
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/trips',
        summary:
          'Cycle times of delivered loads (yard wait, loading, travel out, on site, return) per truck or driver for 7 or 30 days: medians and the slowest trips with causes',
        example: { days: '7', by: 'truck' },
      },
    })
    .input(ZTripsInput)
    .output(ZTripsReport)
    .query(({ ctx, input }) => tripsReport(ctx.db, input, ctx.now())),

  mine: roleProcedure('DRIVER')
    .meta({
      rest: {
        method: 'GET',
        path: '/api/driver/trips',
        summary: "The signed-in driver's own delivered trips and cycle times (7 or 30 days)",
        errors: [404],
        example: { days: '7' },
      },
    })
    .input(ZDriverTripsInput)
    .output(ZDriverTrips)
    .query(({ ctx, input }) => driverTrips(ctx.db, ctx.user, input, ctx.now())),
});
