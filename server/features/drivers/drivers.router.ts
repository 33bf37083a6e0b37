import { createDriver, listDrivers, updateDriverProfile } from '../../../core/drivers/drivers.service';
import { ZDriver, ZDriverCreateInput, ZDriverUpdateInput } from '../../../shared/schemas/fleet';
import { IMAGE_BODY_LIMIT, roleProcedure, router } from '../../trpc';

export const driversRouter = router({
  list: roleProcedure('ADMIN', 'OPS')
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/drivers',
        summary: 'Driver directory',
      },
    })
    .output(ZDriver.array())
    .query(({ ctx }) => listDrivers(ctx.db)),

  create: roleProcedure('ADMIN')
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/drivers',
        summary: 'Add a driver',
        status: 201,
        errors: [409],
        example: {
          id: 'DRV-007',
          name: 'Peter Kamau',
          email: 'peter.kamau@example.co.ke',
          phone: '0712345678',
        },
      },
    })
    .input(ZDriverCreateInput)
    .output(ZDriver)
    .mutation(({ ctx, input }) => createDriver(ctx.db, input)),

  update: roleProcedure('ADMIN')
    .meta({
      rest: {
        method: 'PATCH',
        path: '/api/admin/drivers/:id',
        summary: "Edit a driver's details, ID photo and profile photo",
        bodyLimit: IMAGE_BODY_LIMIT,
        example: { id: 'DRV-007', name: 'Peter Kamau', email: null, phone: '0712345678' },
      },
    })
    .input(ZDriverUpdateInput)
    .output(ZDriver)
    .mutation(({ ctx, input }) => updateDriverProfile(ctx.db, ctx.deps.settings, input.id, input, ctx.now())),
});
