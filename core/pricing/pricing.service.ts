import type { Database, DbOrTx } from '../../drizzle/db';
import { fromCents } from '../../shared/domain/money';
import { DEFAULT_PRICING, type PricingInfo, priceQuote } from '../../shared/domain/pricing';
import type { Logger } from '../../shared/logger';
import { paymentOptions } from '../../shared/payments';
import type { TQuote } from '../../shared/schemas/orders';
import type { TPricingInfo } from '../../shared/schemas/pricing';
import type { Settings } from '../../shared/settings';
import { tableCache } from '../common/table-cache';
import { distanceResolverFor, type ResolvedDistance } from './distance.service';
import { findPricingSettings } from './pricing.queries';

/** The live pricing row in KES (the spec's defaults until it is seeded): every reader's one way to it. */
export async function loadPricing(db: DbOrTx): Promise<PricingInfo> {
  const row = await findPricingSettings(db);
  if (!row) return DEFAULT_PRICING;
  return {
    basePrice: fromCents(row.basePriceCents),
    baseDistanceKm: row.baseDistanceKm,
    incrementKm: row.incrementKm,
    incrementAmount: fromCents(row.incrementAmountCents),
  };
}

/**
 * The live pricing as the public pages see it: kept in memory until pricing_settings changes (a NOTIFY
 * from its trigger) or for a few seconds at most. Orders price from the row itself (loadPricing).
 */
function cachedPricing(database: Database) {
  return tableCache(database, 'pricing_settings', 'pricing', loadPricing);
}

const answers = new WeakMap<PricingInfo, WeakMap<Settings, TPricingInfo>>();

/** What the landing page shows: the live pricing, how to pay and whom to call (one object per pricing). */
export async function pricingInfo(database: Database, settings: Settings): Promise<TPricingInfo> {
  const pricing = await cachedPricing(database).get();
  let bySettings = answers.get(pricing);
  if (!bySettings) {
    bySettings = new WeakMap();
    answers.set(pricing, bySettings);
  }
  let answer = bySettings.get(settings);
  if (!answer) {
    answer = {
      ...pricing,
      paymentOptions: paymentOptions(settings.paybillAccount),
      dispatch: settings.dispatch,
    };
    bySettings.set(settings, answer);
  }
  return answer;
}

export interface QuoteRequest {
  site: string;
  trucks: number;
  distanceKm?: number | undefined;
  perTruckOverride?: number | null;
}

async function quoteWith(
  pricing: PricingInfo | Promise<PricingInfo>,
  settings: Settings,
  log: Logger,
  input: QuoteRequest,
): Promise<TQuote> {
  const [live, distance] = await Promise.all([
    pricing,
    distanceResolverFor(settings, log).resolve(input.site, input.distanceKm),
  ]);
  return priced(live, distance, input);
}

function priced(live: PricingInfo, distance: ResolvedDistance, input: QuoteRequest): TQuote {
  const q = priceQuote(live, {
    distanceKm: distance.distanceKm,
    trucks: input.trucks,
    perTruckOverride: input.perTruckOverride,
  });
  return { ...q, distanceSource: distance.source };
}

/** The quote for a site: the distance (manual, geocoded, heuristic or default) priced by the live row. */
export function quoteFor(db: DbOrTx, settings: Settings, log: Logger, input: QuoteRequest): Promise<TQuote> {
  return quoteWith(loadPricing(db), settings, log, input);
}

/**
 * The public quote: the same, priced from the cached pricing; answered at once (no promise) when the
 * pricing is cached and the distance needs no lookup, as on nearly every call.
 */
export function publicQuote(
  database: Database,
  settings: Settings,
  log: Logger,
  input: QuoteRequest,
): TQuote | Promise<TQuote> {
  const cached = cachedPricing(database);
  const live = cached.peek();
  const distance = live ? distanceResolverFor(settings, log).peek(input.site, input.distanceKm) : undefined;
  if (live && distance) return priced(live, distance, input);
  return quoteWith(live ?? cached.get(), settings, log, input);
}
