import { listAnomalies, reviewAnomaly } from '../../../core/fuel-anomalies/fuel-anomalies.service';
import {
  ZFuelAnomaly,
  ZFuelAnomalyListInput,
  ZFuelAnomalyReviewInput,
} from '../../../shared/schemas/fuel-anomalies';
import { roleProcedure, router } from '../../trpc';

const staffProcedure = roleProcedure('ADMIN', 'OPS');

export const fuelAnomaliesRouter = router({
  list: staffProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/fuel/anomalies',
        summary:
          'Fuel logs that look wrong: ODOMETER_BACKWARDS, OVER_TANK_CAPACITY, CONSUMPTION_OUTLIER, ODOMETER_GPS_MISMATCH, TRUCK_MOVING (status, truckId, limit)',
        example: { status: 'open', limit: '100' },
      },
    })
    .input(ZFuelAnomalyListInput)
    .output(ZFuelAnomaly.array())
    .query(({ ctx, input }) => listAnomalies(ctx.db, input)),

  review: staffProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/fuel/anomalies/:id/review',
        summary: 'Mark a fuel finding reviewed, or dismiss it with a reason',
        errors: [404, 409],
        example: { id: '7', decision: 'dismissed', reason: 'Odometer replaced at the garage on 20 Nov.' },
      },
    })
    .input(ZFuelAnomalyReviewInput)
    .output(ZFuelAnomaly)
    .mutation(({ ctx, input }) => reviewAnomaly(ctx.db, ctx.user, input, ctx.now())),
});
