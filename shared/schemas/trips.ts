import { z } from 'zod';

const ZMinutes = z.number().nullable();
export const ZCycle = z.object({
  yardWait: ZMinutes,
  loading: ZMinutes,
  travelOut: ZMinutes,
  onSite: ZMinutes,
  return: ZMinutes,
  total: ZMinutes,
});

export const ZTrip = z.object({
  assignmentId: z.number(),
  orderId: z.number(),
  site: z.string(),
  truckId: z.string(),
  plate: z.string().nullable(),
  driverId: z.string().nullable(),
  driverName: z.string().nullable(),
  deliveredAt: z.string(),
  /** Minutes per phase; null where the geofences did not see it. */
  minutes: ZCycle,
  /** Why it was slow: its phase furthest over the group's median. */
  cause: z.string().nullable(),
});
export type TTrip = z.infer<typeof ZTrip>;

export const ZTripGroup = z.object({
  key: z.string(),
  name: z.string(),
  trips: z.number(),
  medians: ZCycle,
  slowest: z.array(ZTrip),
});

export const ZTripsInput = z
  .object({
    days: z.preprocess(
      (v) => (typeof v === 'string' ? Number(v) : v),
      z.union([z.literal(7), z.literal(30)], {
        error: 'Days are 7 or 30.',
      }),
    ),
    by: z.enum(['truck', 'driver'], { error: 'Group by truck or driver.' }).default('truck'),
  })
  .partial({ days: true })
  .optional();
export type TTripsInput = z.infer<typeof ZTripsInput>;

export const ZTripsReport = z.object({
  days: z.number(),
  by: z.enum(['truck', 'driver']),
  medians: ZCycle,
  groups: z.array(ZTripGroup),
});
export type TTripsReport = z.infer<typeof ZTripsReport>;

export const ZDriverTripsInput = z
  .object({
    days: z.preprocess(
      (v) => (typeof v === 'string' ? Number(v) : v),
      z.union([z.literal(7), z.literal(30)], {
        error: 'Days are 7 or 30.',
      }),
    ),
  })
  .partial()
  .optional();

export const ZDriverTrips = z.object({ days: z.number(), medians: ZCycle, trips: z.array(ZTrip) });
export type TDriverTrips = z.infer<typeof ZDriverTrips>;
