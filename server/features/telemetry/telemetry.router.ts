import { liveTrucks } from '../../../core/telemetry/telemetry.service';
import { ZMapConfig, ZTruckTelemetry } from '../../../shared/schemas/telemetry';
import { roleProcedure, router } from '../../trpc';

export const telemetryRouter = router({
  /** Live trucks: every truck for ADMIN, OPS and FUEL; a DRIVER sees only their own. */
  trucks: roleProcedure('ADMIN', 'OPS', 'FUEL', 'DRIVER')
    .meta({
      rest: { method: 'GET', path: '/api/telemetry/trucks', summary: 'Trucks with their latest positions' },
    })
    .output(ZTruckTelemetry.array())
    .query(({ ctx }) => liveTrucks(ctx.db, ctx.user, ctx.now())),

  /** Where the fleet map takes its tiles from (MAP_TILE_URL). */
  mapConfig: roleProcedure('ADMIN', 'OPS', 'FUEL', 'DRIVER')
    .output(ZMapConfig)
    .query(({ ctx }) => ({ tileUrl: ctx.deps.settings.mapTileUrl })),
});
