import {
  createTruck,
  editTruck,
  grossLimits,
  listTrucks,
  setGrossLimit,
} from '../../../core/trucks/trucks.service';
import {
  ZGrossLimit,
  ZGrossLimitInput,
  ZTruck,
  ZTruckCreateInput,
  ZTruckUpdateInput,
} from '../../../shared/schemas/fleet';
import { roleProcedure, router } from '../../trpc';

export const trucksRouter = router({
  /** FUEL reads it for the fuel form's suggestions; OPS for its forms and the fleet map. */
  list: roleProcedure('ADMIN', 'OPS', 'FUEL')
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/trucks',
        summary: 'Truck registry',
      },
    })
    .output(ZTruck.array())
    .query(({ ctx }) => listTrucks(ctx.db)),

  create: roleProcedure('ADMIN')
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/trucks',
        summary: 'Register a truck',
        status: 201,
        errors: [409],
        example: {
          id: 'T-004',
          plate: 'KDA 123A',
          capacityT: 20,
          primaryDriverId: 'DRV-007',
          deviceId: 'dev-t4',
          axles: 3,
          tareT: 6,
          tankCapacityL: 300,
        },
      },
    })
    .input(ZTruckCreateInput)
    .output(ZTruck)
    .mutation(({ ctx, input }) => createTruck(ctx.db, input)),

  update: roleProcedure('ADMIN', 'OPS')
    .meta({
      rest: {
        method: 'PATCH',
        path: '/api/admin/trucks/:id',
        summary: 'Edit a truck (OPS: primaryDriverId only)',
        errors: [409],
        example: { id: 'T-004', primaryDriverId: 'DRV-008' },
      },
    })
    .input(ZTruckUpdateInput)
    .output(ZTruck)
    .mutation(({ ctx, input }) => editTruck(ctx.db, ctx.user, input, ctx.now())),

  /** Gross vehicle weight limits per axle count (seeded 18/26/30 t from Cap 403). */
  grossLimits: roleProcedure('ADMIN', 'OPS')
    .meta({
      rest: { method: 'GET', path: '/api/admin/gross-limits', summary: 'Legal gross weight per axle count' },
    })
    .output(ZGrossLimit.array())
    .query(({ ctx }) => grossLimits(ctx.db)),

  setGrossLimit: roleProcedure('ADMIN')
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/admin/gross-limits/:axles',
        summary: 'Edit the legal gross weight of an axle count',
        example: { axles: '3', grossT: 26 },
      },
    })
    .input(ZGrossLimitInput)
    .output(ZGrossLimit.array())
    .mutation(({ ctx, input }) => setGrossLimit(ctx.db, ctx.user, input, ctx.now())),
});
