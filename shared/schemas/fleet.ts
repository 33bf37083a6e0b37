import { z } from 'zod';
import { ZPhone } from './auth';
import { blankToNull, zNumber, zText, zTextId, zTonnes } from './common';

export const FLEET_MESSAGES = {
  plateRequired: 'Plate is required.',
  capacity: 'Capacity (tonnes) must be greater than zero.',
  truckId: 'Provide a unique truck ID.',
  truckIdTaken: 'A truck with this ID already exists. Provide a unique truck ID.',
  deviceTaken: 'This device ID is already linked to another truck.',
  driverName: 'Driver name is required.',
  driverId: 'Provide a unique driver ID.',
  driverIdTaken: 'A driver with this ID already exists. Provide a unique driver ID.',
  unknownDriver: 'No driver with that ID exists.',
  unknownTruck: 'No truck with that ID exists.',
  opsDriverOnly: "Operations can only change a truck's driver.",
  axles: 'Axles must be 2, 3 or 4.',
  tare: 'Empty weight (tonnes) must be greater than zero.',
  tank: 'Tank capacity (litres) must be greater than zero.',
} as const;

const ZId = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(40, 'IDs are at most 40 characters.')
    .regex(/^[A-Za-z0-9][A-Za-z0-9 _./-]*$/, 'IDs use letters, numbers, spaces and - _ . / only.');

const ZCapacity = zTonnes(FLEET_MESSAGES.capacity, { min: 1, maxMessage: 'Capacity is at most 100 tonnes.' });
const ZPlate = zText({ label: 'Plate', max: 20, required: FLEET_MESSAGES.plateRequired }).toUpperCase();
/** A truck's primary driver: a driver id, or blank for none. */
const ZOptionalRef = z.preprocess(
  blankToNull,
  zTextId(FLEET_MESSAGES.unknownDriver, 40).nullable().optional(),
);
const ZDeviceId = z.preprocess(
  blankToNull,
  zText({ label: 'Device ID', max: 64 })
    .min(3, 'Device IDs have at least 3 characters.')
    .nullable()
    .optional(),
);

/** Axle count (which gross weight limit applies), empty weight and tank size (issue 17). */
const ZAxles = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
  z.union([z.literal(2), z.literal(3), z.literal(4)], { error: FLEET_MESSAGES.axles }),
);
const ZTare = z.preprocess(
  blankToNull,
  zTonnes(FLEET_MESSAGES.tare, { maxMessage: 'Empty weight is at most 100 tonnes.' }).nullable().optional(),
);
const ZTank = z.preprocess(
  blankToNull,
  zNumber({
    message: FLEET_MESSAGES.tank,
    max: 5000,
    maxMessage: 'Tank capacity is at most 5,000 litres.',
    decimals: 1,
    decimalsMessage: 'Tank capacity has at most one decimal.',
  })
    .nullable()
    .optional(),
);

/** Truck bodies accept capacity_t too (both spellings are seen in the spec). */
function capacityAlias(v: unknown) {
  if (v && typeof v === 'object' && !('capacityT' in v) && 'capacity_t' in v) {
    return { ...(v as Record<string, unknown>), capacityT: (v as Record<string, unknown>).capacity_t };
  }
  return v;
}

export const ZTruckCreateInput = z.preprocess(
  capacityAlias,
  z.object({
    id: ZId(FLEET_MESSAGES.truckId),
    plate: ZPlate,
    capacityT: ZCapacity.default(20),
    primaryDriverId: ZOptionalRef,
    deviceId: ZDeviceId,
    axles: ZAxles.default(3),
    tareT: ZTare,
    tankCapacityL: ZTank,
  }),
);
export type TTruckCreateInput = z.infer<typeof ZTruckCreateInput>;

export const ZTruckUpdateInput = z.preprocess(
  capacityAlias,
  z.object({
    id: zTextId(FLEET_MESSAGES.unknownTruck, 40),
    plate: ZPlate.optional(),
    capacityT: ZCapacity.optional(),
    primaryDriverId: ZOptionalRef,
    deviceId: ZDeviceId,
    axles: ZAxles.optional(),
    tareT: ZTare,
    tankCapacityL: ZTank,
  }),
);
export type TTruckUpdateInput = z.infer<typeof ZTruckUpdateInput>;

export const ZTruck = z.object({
  id: z.string(),
  plate: z.string(),
  capacityT: z.number(),
  capacity_t: z.number(),
  primaryDriverId: z.string().nullable(),
  driverName: z.string().nullable(),
  driverPhone: z.string().nullable(),
  driverEmail: z.string().nullable(),
  deviceId: z.string().nullable(),
  axles: z.number(),
  tareT: z.number().nullable(),
  tankCapacityL: z.number().nullable(),
  /** Gross limit for its axles less its empty weight; null while the empty weight is unknown. */
  legalPayloadT: z.number().nullable(),
  updatedAt: z.string(),
});
export type TTruck = z.infer<typeof ZTruck>;

const ZOptionalEmail = z.preprocess(
  blankToNull,
  zText({ label: 'Email', max: 254 })
    .pipe(z.email({ error: 'Enter a valid email address.' }))
    .nullable()
    .optional(),
);
const ZOptionalPhone = z.preprocess(blankToNull, ZPhone.nullable().optional());
const ZImageData = z.preprocess(
  blankToNull,
  zText({ label: 'Image', max: 8 * 1024 * 1024, tooLong: 'Images must be 5 MB or smaller.' })
    .nullable()
    .optional(),
);
const ZDriverName = zText({ label: 'Driver name', max: 120, required: FLEET_MESSAGES.driverName });

export const ZDriverCreateInput = z.object({
  id: ZId(FLEET_MESSAGES.driverId),
  name: ZDriverName,
  email: ZOptionalEmail,
  phone: ZOptionalPhone,
});
export type TDriverCreateInput = z.infer<typeof ZDriverCreateInput>;

export const ZDriverProfileInput = z.object({
  name: ZDriverName,
  email: ZOptionalEmail,
  phone: ZOptionalPhone,
  nationalIdData: ZImageData,
  photoData: ZImageData,
});
export type TDriverProfileInput = z.infer<typeof ZDriverProfileInput>;

export const ZDriverUpdateInput = ZDriverProfileInput.extend({
  id: zTextId(FLEET_MESSAGES.unknownDriver, 40),
});

export const ZDriver = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  nationalIdPath: z.string().nullable(),
  photoPath: z.string().nullable(),
  updatedAt: z.string(),
});
export type TDriver = z.infer<typeof ZDriver>;

/** The editable gross weight limits, one per axle count. */
export const ZGrossLimit = z.object({ axles: z.number(), grossT: z.number(), updatedAt: z.string() });
export type TGrossLimit = z.infer<typeof ZGrossLimit>;
export const ZGrossLimitInput = z.object({
  axles: ZAxles,
  grossT: zTonnes('Gross limit (tonnes) must be greater than zero.', { min: 1 }),
});
export type TGrossLimitInput = z.infer<typeof ZGrossLimitInput>;
