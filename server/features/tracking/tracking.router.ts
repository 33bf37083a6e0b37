import { setOrderSite, trackOrder } from '../../../core/tracking/tracking.service';
import { ZOrderSiteInput, ZSitePoint, ZTracking, ZTrackingInput } from '../../../shared/schemas/tracking';
import { publicProcedure, roleProcedure, router } from '../../trpc';

export const trackingRouter = router({
  /** The customer's tracking link: public, limited per address; no costs, no customer details. */
  get: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/track/:token',
        summary:
          "Track an order by its tracking link: status, loads (plate, status, the truck's last position and minutes to the site while on the road), delivered times",
        errors: [404, 429],
        example: { token: '3f1c2b9a8e7d4c6b5a4f3e2d1c0b9a8e' },
      },
    })
    .input(ZTrackingInput)
    .output(ZTracking)
    .query(({ ctx, input }) =>
      trackOrder(
        { db: ctx.db, settings: ctx.deps.settings, limiter: ctx.deps.limiters.trackPerIp },
        ctx.ip,
        input.token,
        ctx.now(),
      ),
    ),

  /** The customer's pin or pasted shared location for their order's site (ADMIN/OPS for any order). */
  setSite: roleProcedure('CUSTOMER', 'ADMIN', 'OPS')
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/orders/:id/site',
        summary:
          "Refine an order's site: a pin (lat, lng) or a pasted shared location (geo: URI, Google or Apple Maps link, coordinates)",
        errors: [404, 409],
        example: { id: '42', shared: 'https://www.google.com/maps/@-1.1319,36.9784,17z' },
      },
    })
    .input(ZOrderSiteInput)
    .output(ZSitePoint)
    .mutation(({ ctx, input }) => setOrderSite(ctx.db, ctx.deps.settings, ctx.user, input, ctx.now())),
});
