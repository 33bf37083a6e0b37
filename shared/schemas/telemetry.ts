import { z } from 'zod';
import { MESSAGES } from '../constants';
import { ASSIGNMENT_STATUSES } from '../enums';
import { blankToUndefined, zTextId } from './common';

export const ZTruckTelemetry = z.object({
  truckId: z.string(),
  plate: z.string().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  address: z.string().nullable(),
  status: z.string().nullable(),
  speed: z.number().nullable(),
  idleMinutes: z.number().nullable(),
  lastUpdated: z.string().nullable(),
  /** The phone's battery (%) from its latest fix or heartbeat. */
  battery: z.number().nullable(),
  /** When the device last reported (a fix or a heartbeat without one). */
  lastSeen: z.string().nullable(),
  driverId: z.string().nullable(),
  driverName: z.string().nullable(),
  driverPhone: z.string().nullable(),
  driverEmail: z.string().nullable(),
});
export type TTruckTelemetry = z.infer<typeof ZTruckTelemetry>;

export const ZMapConfig = z.object({ tileUrl: z.string() });

export const ZDriverDashboardInput = z
  .object({
    driverId: z.preprocess(blankToUndefined, zTextId(MESSAGES.unknownDriver, 40).optional()),
  })
  .optional();

export const ZDriverDashboard = z.object({
  driverId: z.string(),
  driverName: z.string(),
  driver: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    nationalIdPath: z.string().nullable(),
    photoPath: z.string().nullable(),
  }),
  rank: z.number().nullable(),
  summary: z.object({
    loadsDelivered: z.number(),
    tonnesDelivered: z.number(),
    weeklyRevenue: z.number(),
    previousWeekRevenue: z.number(),
    averageTonnesPerLoad: z.number(),
    trend: z.number().nullable(),
  }),
  assignments: z.array(
    z.object({
      id: z.number(),
      site: z.string(),
      plate: z.string().nullable(),
      truckId: z.string().nullable(),
      status: z.enum(ASSIGNMENT_STATUSES),
      tonnes: z.number(),
      estimatedRevenue: z.number(),
      scheduledAt: z.string().nullable(),
      /** The customer to call at the site: while the load is still to deliver (null after, or when none). */
      customerName: z.string().nullable(),
      customerPhone: z.string().nullable(),
      /** The site's point, for directions and the pin (null until the order has one). */
      sitePoint: z.object({ lat: z.number(), lng: z.number() }).nullable(),
    }),
  ),
  leaderboard: z.array(z.object({ driverId: z.string(), name: z.string(), revenue: z.number() })),
  telemetry: z.array(
    z.object({
      truckId: z.string(),
      plate: z.string().nullable(),
      status: z.string().nullable(),
      speed: z.number().nullable(),
      address: z.string().nullable(),
      lat: z.number().nullable(),
      lng: z.number().nullable(),
      lastUpdated: z.string().nullable(),
      idleMinutes: z.number().nullable(),
    }),
  ),
});
export type TDriverDashboard = z.infer<typeof ZDriverDashboard>;

export const DRIVER_MESSAGES = {
  notLinked: 'Driver profile not linked to this account.',
  notYours: 'You can only see your own driver dashboard.',
  pickDriver: 'Pick a driver before saving profile changes.',
  unknownDriver: 'No driver with that ID exists.',
} as const;
