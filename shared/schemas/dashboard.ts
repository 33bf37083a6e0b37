import { z } from 'zod';

export const ZDashboard = z.object({
  stock: z.number(),
  yardName: z.string(),
  pendingOrders: z.number(),
  activeAssignments: z.number(),
  daily: z.object({ revenue: z.number(), profit: z.number() }),
  weekly: z.object({ revenue: z.number(), profit: z.number() }),
  expensesPerTruck: z.array(
    z.object({ truckId: z.string(), plate: z.string().nullable(), amount: z.number() }),
  ),
  topDrivers: z.array(
    z.object({ driverId: z.string(), name: z.string(), tonnes: z.number(), revenue: z.number() }),
  ),
});
export type TDashboard = z.infer<typeof ZDashboard>;

/** Gross margin = profit / revenue in percent to one decimal (spec section 9); null without revenue. */
export function marginPercent(profit: number, revenue: number): number | null {
  if (!revenue) return null;
  return Math.round((profit / revenue) * 1000) / 10;
}
