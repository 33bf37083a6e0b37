import { z } from 'zod';

export const ZPricingInfo = z.object({
  basePrice: z.number(),
  baseDistanceKm: z.number(),
  incrementKm: z.number(),
  incrementAmount: z.number(),
  /** Beyond the spec's four fields: what the landing page shows with the pricing. */
  paymentOptions: z.array(z.object({ bank: z.string(), paybill: z.string(), account: z.string() })),
  dispatch: z.object({ phone: z.string(), email: z.string(), whatsapp: z.string(), hours: z.string() }),
});
export type TPricingInfo = z.infer<typeof ZPricingInfo>;
