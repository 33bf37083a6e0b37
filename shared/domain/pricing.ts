/** Distance pricing per truck load (spec sections 3 and 9; DESIGN.md "Pricing"). Amounts in KES. */
import { fromCents, toCents } from './money';

export interface PricingInfo {
  basePrice: number;
  baseDistanceKm: number;
  incrementKm: number;
  incrementAmount: number;
}

/** The spec's defaults, used until the live pricing loads (and seeded into the database). */
export const DEFAULT_PRICING: PricingInfo = {
  basePrice: 32_000,
  baseDistanceKm: 15,
  incrementKm: 5,
  incrementAmount: 1_000,
};

/** Base price up to the base distance, plus one increment for every started increment beyond it. */
export function perTruckPrice(pricing: PricingInfo, distanceKm: number): number {
  const beyond = Math.max(0, distanceKm - pricing.baseDistanceKm);
  // Distances carry float noise (15.000000001 km must not start an increment): compare at 0.01 km.
  const increments = Math.ceil(Math.round((beyond / pricing.incrementKm) * 100) / 100);
  return pricing.basePrice + increments * pricing.incrementAmount;
}

export interface QuoteInput {
  distanceKm: number;
  trucks: number;
  /** An admin's per-truck price replaces the distance price. */
  perTruckOverride?: number | null;
}

export interface PriceQuote {
  perTruck: number;
  total: number;
  truckCount: number;
  distanceKm: number;
}

export function priceQuote(pricing: PricingInfo, input: QuoteInput): PriceQuote {
  const distanceKm = Math.round(input.distanceKm * 10) / 10;
  // An override keeps its cents (31,000.50 stays 31,000.50), rounded half-up to the cent.
  const perTruck =
    input.perTruckOverride != null && input.perTruckOverride > 0
      ? fromCents(toCents(input.perTruckOverride))
      : perTruckPrice(pricing, distanceKm);
  const total = fromCents(toCents(perTruck) * input.trucks);
  return { perTruck, total, truckCount: input.trucks, distanceKm };
}
