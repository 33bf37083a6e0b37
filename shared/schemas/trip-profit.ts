import { z } from 'zod';

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
  trips: z.array(ZTripProfit),
  trucks: z.array(ZTruckTripTotals),
});
export type TTripProfitReport = z.infer<typeof ZTripProfitReport>;
