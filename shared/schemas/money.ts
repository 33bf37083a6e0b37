import { z } from 'zod';

export const COST_TYPES = [
  'FUEL',
  'SALARY',
  'REPAIR',
  'MAINTENANCE',
  'LOADING',
  'OFFLOADING',
  'STOCK_PURCHASE',
  'OTHER',
] as const;
export type CostType = (typeof COST_TYPES)[number];

export const MONEY_MESSAGES = {
  costTruck: 'Select the truck for this cost.',
  costType: 'Cost type is required.',
  amount: 'Enter an amount greater than zero.',
  description: 'Provide a short description.',
  costDuplicate: 'Potential duplicate cost detected.',
  fuelDuplicate: 'Potential duplicate fuel entry detected.',
  duplicateOfMismatch: 'The duplicate reference does not match the existing entry.',
  costNotFound: 'Cost record not found.',
  linkedCost: 'This cost comes from a fuel log or a stock receipt; change it there.',
  fuelTruck: 'Truck is required.',
  fuelCost: 'Total cost is required.',
  litres: 'Litres cannot be negative.',
  odometer: 'Odometer cannot be negative.',
  unknownTruck: 'No truck matches that ID or plate.',
  voidReason: 'Provide a reason before voiding the duplicate record.',
  recordNotFound: 'Duplicate record not found.',
  alreadyVoided: 'This record has already been voided.',
  range: 'Choose a valid date range (at most 366 days).',
} as const;

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

export const ZCostInput = z.object({
  truckId: z.string({ error: MONEY_MESSAGES.costTruck }).trim().min(1, MONEY_MESSAGES.costTruck),
  type: z.enum(COST_TYPES, { error: MONEY_MESSAGES.costType }),
  amount: z.coerce
    .number({ error: MONEY_MESSAGES.amount })
    .positive(MONEY_MESSAGES.amount)
    .max(100_000_000, MONEY_MESSAGES.amount),
  description: z
    .string({ error: MONEY_MESSAGES.description })
    .trim()
    .min(1, MONEY_MESSAGES.description)
    .max(500),
  incurredAt: z.preprocess(
    blankToUndefined,
    z.coerce.date({ error: 'Enter a valid date and time.' }).optional(),
  ),
  overrideDuplicate: z.boolean().optional(),
  duplicateOf: z.preprocess(blankToUndefined, z.coerce.number().int().positive().optional()),
});
export type TCostInput = z.infer<typeof ZCostInput>;

export const ZCostUpdateInput = ZCostInput.omit({ overrideDuplicate: true, duplicateOf: true }).extend({
  id: z.coerce.number().int().positive(MONEY_MESSAGES.costNotFound),
});

export const ZCost = z.object({
  id: z.number(),
  type: z.string(),
  truck_id: z.string().nullable(),
  plate: z.string().nullable(),
  amount: z.number(),
  description: z.string(),
  incurred_at: z.string(),
  is_duplicate: z.boolean(),
  duplicate_of: z.number().nullable(),
  confirmed_at: z.string().nullable(),
  source: z.string(),
  voided: z.boolean(),
});
export type TCost = z.infer<typeof ZCost>;

const nullableNumber = (message: string) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    z.coerce.number({ error: message }).min(0, message).max(10_000_000).nullable(),
  );

export const ZFuelInput = z.object({
  truckId: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z.string({ error: MONEY_MESSAGES.fuelTruck }).min(1, MONEY_MESSAGES.fuelTruck),
  ),
  litres: nullableNumber(MONEY_MESSAGES.litres),
  odometer: nullableNumber(MONEY_MESSAGES.odometer),
  cost: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce.number({ error: MONEY_MESSAGES.fuelCost }).min(0, MONEY_MESSAGES.fuelCost).max(10_000_000),
  ),
  note: z.string().trim().max(500).optional().nullable(),
  capturedAt: z.preprocess(
    blankToUndefined,
    z.coerce.date({ error: 'Enter a valid date and time.' }).optional(),
  ),
  photoData: z.preprocess(
    blankToUndefined,
    z
      .string()
      .max(8 * 1024 * 1024)
      .optional(),
  ),
  overrideDuplicate: z.boolean().optional(),
  duplicateOf: z.preprocess(blankToUndefined, z.coerce.number().int().positive().optional()),
});
export type TFuelInput = z.infer<typeof ZFuelInput>;

export const ZFuelLog = z.object({
  id: z.number(),
  truckId: z.string(),
  plate: z.string().nullable(),
  litres: z.number().nullable(),
  odometer: z.number().nullable(),
  cost: z.number(),
  note: z.string().nullable(),
  capturedAt: z.string(),
  photoPath: z.string().nullable(),
  driverName: z.string().nullable(),
  mileage: z.number().nullable(),
  isDuplicate: z.boolean(),
  duplicateOf: z.number().nullable(),
  confirmedAt: z.string().nullable(),
  createdBy: z.string().nullable(),
});
export type TFuelLog = z.infer<typeof ZFuelLog>;

export const AUDIT_STATUSES = ['pending', 'reviewed', 'voided'] as const;
const ZDateOnly = z.preprocess(
  blankToUndefined,
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are YYYY-MM-DD.')
    .optional(),
);

export const ZAuditListInput = z
  .object({
    limit: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(400).default(400)),
    entity: z.preprocess(
      (v) => (typeof v === 'string' && v ? v.toLowerCase() : undefined),
      z.enum(['cost', 'fuel']).optional(),
    ),
    status: z.preprocess(blankToUndefined, z.enum(AUDIT_STATUSES).optional()),
    type: z.preprocess(blankToUndefined, z.string().max(40).optional()),
    truckId: z.preprocess(blankToUndefined, z.string().max(40).optional()),
    from: ZDateOnly,
    to: ZDateOnly,
  })
  .optional();

export const ZAuditActionTarget = z.object({
  entity: z.preprocess(
    (v) => (typeof v === 'string' ? v.toLowerCase() : v),
    z.enum(['cost', 'fuel'], { error: 'Unknown record type.' }),
  ),
  id: z.coerce.number().int().positive(MONEY_MESSAGES.recordNotFound),
});
export const ZAuditReviewInput = ZAuditActionTarget.extend({
  note: z.string().trim().max(500).optional().nullable(),
});
export const ZAuditVoidInput = ZAuditActionTarget.extend({
  reason: z.string({ error: MONEY_MESSAGES.voidReason }).trim().min(1, MONEY_MESSAGES.voidReason).max(500),
  cascadeCost: z.boolean().optional(),
});

export const ZAuditRecord = z.object({
  entity: z.enum(['COST', 'FUEL']),
  id: z.number(),
  status: z.enum(AUDIT_STATUSES),
  type: z.string(),
  truckId: z.string().nullable(),
  truckPlate: z.string().nullable(),
  eventAt: z.string(),
  amount: z.number().nullable(),
  litres: z.number().nullable(),
  cost: z.number().nullable(),
  description: z.string().nullable(),
  note: z.string().nullable(),
  duplicateOf: z.number().nullable(),
  createdByName: z.string().nullable(),
  createdByEmail: z.string().nullable(),
  confirmedByName: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  reviewedByName: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  voidedByName: z.string().nullable(),
  voidedAt: z.string().nullable(),
  reviewNote: z.string().nullable(),
  voidReason: z.string().nullable(),
  linkedCostId: z.number().nullable(),
});
export type TAuditRecord = z.infer<typeof ZAuditRecord>;

export const ZFinanceRangeInput = z.object({ from: ZDateOnly, to: ZDateOnly }).optional();

export const ZFinanceSummary = z.object({
  revenue: z.number(),
  orders: z.number(),
  costTotal: z.number(),
  gross: z.number(),
  from: z.string(),
  to: z.string(),
});
export const ZFinancePoint = z.object({ date: z.string(), revenue: z.number(), cost: z.number() });
export const ZTruckBreakdownRow = z.object({
  truckId: z.string(),
  plate: z.string().nullable(),
  loads: z.number(),
  revenue: z.number(),
  cost: z.number(),
  gross: z.number(),
  margin: z.number().nullable(),
});
export const ZCostMixRow = z.object({ type: z.string(), amount: z.number() });
