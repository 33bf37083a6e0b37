import { z } from 'zod';
import { blankToUndefined, zListLimit } from './common';
import { ZFinanceRange } from './money';

/** Trips an answer lists when not asked for more (latest first), and the most it lists. */
export const TRIP_PROFIT_PAGE = 100;
export const TRIP_PROFIT_MAX_TRIPS = 5000;

/**
 * A finance range (without one, or without either end, the server's default: the last 30 days in the
 * business time zone), and how many of its trips to list: the per-truck totals always cover all of them.
 */
export const ZTripProfitInput = ZFinanceRange.partial()
  .extend({
    limit: z.preprocess(blankToUndefined, zListLimit(TRIP_PROFIT_MAX_TRIPS, TRIP_PROFIT_PAGE)),
  })
  .optional();
export type TTripProfitInput = z.infer<typeof ZTripProfitInput>;

export const ZTripProfit = z.object({
  assignmentId: z.number(),
  orderId: z.number(),
  site: z.string(),
  truckId: z.string(),
  plate: z.string().nullable(),
  deliveredAt: z.string(),
  /** Kilometres charged for fuel: the trip's GPS track, or the order's distance there and back. */
  km: z.number().nullable(),
  kmSource: z.enum(['gps', 'order']),
  revenue: z.number(),
  fuel: z.number(),
  linkedCosts: z.number(),
  allowance: z.number(),
  cess: z.number(),
  margin: z.number(),
});
export type TTripProfit = z.infer<typeof ZTripProfit>;

export const ZTruckTripTotals = z.object({
  truckId: z.string(),
  plate: z.string().nullable(),
  trips: z.number(),
  revenue: z.number(),
  tripsMargin: z.number(),
  /** The truck's costs in the range not charged to a trip (fuel beyond the trips' shares, repairs, salaries). */
  unallocatedCost: z.number(),
  /** tripsMargin − unallocatedCost: revenue less every cost, allowance and cess. */
  margin: z.number(),
});

export const ZTripProfitReport = z.object({
  from: z.string(),
  to: z.string(),
  /** The range's latest trips, newest first, at most the `limit` asked for. */
  trips: z.array(ZTripProfit),
  /** Every trip of the range (the per-truck totals sum them all). */
  tripCount: z.number(),
  trucks: z.array(ZTruckTripTotals),
});
export type TTripProfitReport = z.infer<typeof ZTripProfitReport>;
