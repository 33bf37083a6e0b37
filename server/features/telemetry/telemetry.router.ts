import { z } from 'zod';
import { ZTruckTelemetry } from '../../../shared/schemas/telemetry';
import { roleProcedure, router } from '../../trpc';
import { truckTelemetry } from './telemetry.queries';

export const telemetryRouter = router({
  /** Live trucks: every truck for ADMIN, OPS and FUEL; a DRIVER sees only their own. */
  trucks: roleProcedure('ADMIN', 'OPS', 'FUEL', 'DRIVER')
    .output(ZTruckTelemetry.array())
    .query(({ ctx }) =>
      truckTelemetry(ctx, ctx.user.role === 'DRIVER' ? (ctx.user.driverId ?? '\u0000') : undefined),
    ),

  /** Where the fleet map takes its tiles from (MAP_TILE_URL). */
  mapConfig: roleProcedure('ADMIN', 'OPS', 'FUEL', 'DRIVER')
    .output(z.object({ tileUrl: z.string() }))
    .query(({ ctx }) => ({ tileUrl: ctx.deps.config.mapTileUrl })),
});
