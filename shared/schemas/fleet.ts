import { z } from 'zod';

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
} as const;

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const ZId = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(40, 'IDs are at most 40 characters.')
    .regex(/^[A-Za-z0-9][A-Za-z0-9 _./-]*$/, 'IDs use letters, numbers, spaces and - _ . / only.');

const ZCapacity = z.coerce
  .number({ error: FLEET_MESSAGES.capacity })
  .min(1, FLEET_MESSAGES.capacity)
  .max(100, 'Capacity is at most 100 tonnes.');
const ZPlate = z
  .string({ error: FLEET_MESSAGES.plateRequired })
  .trim()
  .min(1, FLEET_MESSAGES.plateRequired)
  .max(20)
  .transform((s) => s.toUpperCase());
const ZOptionalRef = z.preprocess(blankToNull, z.string().trim().max(40).nullable().optional());
const ZDeviceId = z.preprocess(
  blankToNull,
  z.string().trim().min(3, 'Device IDs have at least 3 characters.').max(64).nullable().optional(),
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
  }),
);
export type TTruckCreateInput = z.infer<typeof ZTruckCreateInput>;

export const ZTruckUpdateInput = z.preprocess(
  capacityAlias,
  z.object({
    id: z.string().trim().min(1, FLEET_MESSAGES.unknownTruck),
    plate: ZPlate.optional(),
    capacityT: ZCapacity.optional(),
    primaryDriverId: ZOptionalRef,
    deviceId: ZDeviceId,
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
  updatedAt: z.string(),
});
export type TTruck = z.infer<typeof ZTruck>;

const ZOptionalEmail = z.preprocess(
  blankToNull,
  z.email({ error: 'Enter a valid email address.' }).max(254).nullable().optional(),
);
const ZOptionalPhone = z.preprocess(
  blankToNull,
  z
    .string()
    .trim()
    .max(32)
    .regex(/^[+0-9 ()-]*$/, 'Enter a valid phone number.')
    .nullable()
    .optional(),
);
const ZImageData = z.preprocess(
  blankToNull,
  z
    .string()
    .max(8 * 1024 * 1024, 'Images must be 5 MB or smaller.')
    .nullable()
    .optional(),
);

export const ZDriverCreateInput = z.object({
  id: ZId(FLEET_MESSAGES.driverId),
  name: z.string({ error: FLEET_MESSAGES.driverName }).trim().min(1, FLEET_MESSAGES.driverName).max(120),
  email: ZOptionalEmail,
  phone: ZOptionalPhone,
});
export type TDriverCreateInput = z.infer<typeof ZDriverCreateInput>;

export const ZDriverProfileInput = z.object({
  name: z.string({ error: FLEET_MESSAGES.driverName }).trim().min(1, FLEET_MESSAGES.driverName).max(120),
  email: ZOptionalEmail,
  phone: ZOptionalPhone,
  nationalIdData: ZImageData,
  photoData: ZImageData,
});
export type TDriverProfileInput = z.infer<typeof ZDriverProfileInput>;

export const ZDriverUpdateInput = ZDriverProfileInput.extend({
  id: z.string().trim().min(1, FLEET_MESSAGES.unknownDriver),
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
