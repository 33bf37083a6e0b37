import { pricingInfo, publicQuote } from '../../../core/pricing/pricing.service';
import { ZQuote, ZQuoteInput } from '../../../shared/schemas/orders';
import { ZPricingInfo } from '../../../shared/schemas/pricing';
import { publicProcedure, router } from '../../trpc';

export const pricingRouter = router({
  get: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/pricing',
        summary: 'Live pricing, payment options and dispatch contacts',
        etag: true,
        output: ZPricingInfo,
      },
    })
    .query(({ ctx }) => pricingInfo(ctx.deps.database, ctx.deps.settings)),

  quote: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/pricing/quote',
        summary: 'Instant distance-based quote',
        example: { site: 'Ruiru, Kamakis', trucks: 2, sandType: 'coarse' },
        output: ZQuote,
      },
    })
    .input(ZQuoteInput)
    .query(({ ctx, input }) => publicQuote(ctx.deps.database, ctx.deps.settings, ctx.deps.log, input)),
});
