import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../../drizzle/db';
import { pricingSettings } from '../../../drizzle/schema';
import { DEFAULT_PRICING, type PricingInfo, priceQuote } from '../../../shared/domain/pricing';
import type { TQuote } from '../../../shared/schemas/orders';
import type { Context } from '../../context';
import { distanceResolverFor } from './distance.service';

export async function loadPricing(db: DbOrTx): Promise<PricingInfo> {
  const [row] = await db.select().from(pricingSettings).where(eq(pricingSettings.id, 1)).limit(1);
  if (!row) return DEFAULT_PRICING;
  return {
    basePrice: row.basePriceCents / 100,
    baseDistanceKm: row.baseDistanceKm,
    incrementKm: row.incrementKm,
    incrementAmount: row.incrementAmountCents / 100,
  };
}

/** The quote for a site: the distance (manual, geocoded, heuristic or default) priced by the live settings. */
export async function quoteFor(
  ctx: Pick<Context, 'db' | 'deps'>,
  input: { site: string; trucks: number; distanceKm?: number | undefined; perTruckOverride?: number | null },
): Promise<TQuote> {
  const [pricing, distance] = await Promise.all([
    loadPricing(ctx.db),
    distanceResolverFor(ctx.deps.config, ctx.deps.log).resolve(input.site, input.distanceKm),
  ]);
  const q = priceQuote(pricing, {
    distanceKm: distance.distanceKm,
    trucks: input.trucks,
    perTruckOverride: input.perTruckOverride,
  });
  return { ...q, distanceSource: distance.source };
}
