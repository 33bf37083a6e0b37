import { driverDashboard, updateOwnProfile } from '../../../core/driver-dashboard/driver-dashboard.service';
import { ZDriver, ZDriverProfileInput } from '../../../shared/schemas/fleet';
import { ZDriverDashboard, ZDriverDashboardInput } from '../../../shared/schemas/telemetry';
import { idempotent } from '../../idempotency';
import { IMAGE_BODY_LIMIT, roleProcedure, router } from '../../trpc';

export const driverDashboardRouter = router({
  /** A DRIVER sees only their own linked driver; ADMIN any (the page's driver picker). */
  dashboard: roleProcedure('DRIVER', 'ADMIN')
    .meta({
      rest: {
        method: 'GET',
        path: '/api/driver/dashboard',
        summary: "A driver's week: stats, loads, leaderboard, trucks",
        errors: [404],
        example: { driverId: 'DRV-007' },
      },
    })
    .input(ZDriverDashboardInput)
    .output(ZDriverDashboard)
    .query(({ ctx, input }) => driverDashboard(ctx.db, ctx.user, input?.driverId, ctx.now())),

  /** The signed-in driver's own details, ID photo and profile photo. */
  updateProfile: roleProcedure('DRIVER')
    .meta({
      idempotent: true,
      rest: {
        method: 'PUT',
        path: '/api/driver/profile',
        summary: "The signed-in driver's details and photos",
        bodyLimit: IMAGE_BODY_LIMIT,
        example: { name: 'Peter Kamau', email: 'peter.kamau@example.co.ke', phone: '0712345678' },
      },
    })
    .input(ZDriverProfileInput)
    .use(idempotent)
    .output(ZDriver)
    .mutation(({ ctx, input }) => updateOwnProfile(ctx.db, ctx.deps.settings, ctx.user, input, ctx.now())),
});
