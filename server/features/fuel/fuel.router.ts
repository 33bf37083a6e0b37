import { listFuelLogs, recordFuel } from '../../../core/fuel/fuel.service';
import { ZFuelInput, ZFuelListInput, ZFuelLog } from '../../../shared/schemas/money';
import { idempotent } from '../../idempotency';
import { IMAGE_BODY_LIMIT, roleProcedure, router } from '../../trpc';
import { fuelAnomaliesRouter } from '../fuel-anomalies/fuel-anomalies.router';

const fuelProcedure = roleProcedure('FUEL', 'OPS', 'ADMIN');

export const fuelRouter = router({
  list: fuelProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/fuel/logs',
        summary: 'Latest fuel logs (limit ≤ 50)',
        example: { limit: '50' },
      },
    })
    .input(ZFuelListInput)
    .output(ZFuelLog.array())
    .query(({ ctx, input }) => listFuelLogs(ctx.db, input?.limit ?? 50)),

  /** A pump reading with its linked FUEL cost; the same duplicate flow as costs, with the fuel rule. */
  create: fuelProcedure
    .meta({
      idempotent: true,
      rest: {
        method: 'POST',
        path: '/api/fuel/logs',
        summary:
          'Record a fuel stop (409 with duplicate flag when suspected; resend with overrideDuplicate and duplicateOf)',
        status: 201,
        bodyLimit: IMAGE_BODY_LIMIT,
        duplicateConflict: true,
        errors: [409],
        example: {
          truckId: 'KDA 123A',
          litres: 120.5,
          odometer: 48210,
          cost: 20485,
          note: 'Rubis Juja',
          capturedAt: '2026-11-23T07:40:00.000Z',
        },
      },
    })
    .input(ZFuelInput)
    .use(idempotent)
    .output(ZFuelLog)
    .mutation(({ ctx, input }) => recordFuel(ctx.db, ctx.deps.settings, ctx.user, input, ctx.now())),

  /** Fuel logs that look wrong (issue 17): ADMIN and OPS review them in the audit console. */
  anomalies: fuelAnomaliesRouter,
});
