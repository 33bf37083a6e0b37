import { paymentOptions } from '../../../shared/payments';
import { ZQuote, ZQuoteInput } from '../../../shared/schemas/orders';
import { ZPricingInfo } from '../../../shared/schemas/pricing';
import { publicProcedure, router } from '../../trpc';
import { loadPricing, quoteFor } from './pricing.service';

export const pricingRouter = router({
  get: publicProcedure.output(ZPricingInfo).query(async ({ ctx }) => ({
    ...(await loadPricing(ctx.db)),
    paymentOptions: paymentOptions(ctx.deps.config.paybillAccount),
    dispatch: ctx.deps.config.dispatch,
  })),

  quote: publicProcedure
    .input(ZQuoteInput)
    .output(ZQuote)
    .mutation(({ ctx, input }) => quoteFor(ctx, input)),
});
