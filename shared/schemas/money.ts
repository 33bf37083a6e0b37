import { z } from 'zod';
import { COST_SOURCES, COST_TYPES } from '../enums';
import {
  blankToUndefined,
  LIMITS,
  zCalendarDate,
  zIntId,
  zKes,
  zListLimit,
  zLitres,
  zOdometerKm,
  zOptionalInstant,
  zText,
  zTextId,
} from './common';

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

/** The id of the earlier entry a confirmed duplicate repeats (the `existing.id` of the 409). */
const ZDuplicateOf = z.preprocess(blankToUndefined, zIntId(MONEY_MESSAGES.duplicateOfMismatch).optional());

export const ZCostInput = z.object({
  truckId: zTextId(MONEY_MESSAGES.costTruck),
  type: z.enum(COST_TYPES, { error: MONEY_MESSAGES.costType }),
  amount: zKes(MONEY_MESSAGES.amount),
  description: zText({ label: 'Description', max: 500, required: MONEY_MESSAGES.description }),
  incurredAt: zOptionalInstant(),
  /** The load this cost belongs to (loading, offloading): it counts in that trip's profit. */
  assignmentId: z.preprocess(blankToUndefined, zIntId("Choose one of this truck's loads.").optional()),
  overrideDuplicate: z.boolean().optional(),
  duplicateOf: ZDuplicateOf,
});
export type TCostInput = z.infer<typeof ZCostInput>;

export const ZCostUpdateInput = ZCostInput.omit({ overrideDuplicate: true, duplicateOf: true }).extend({
  id: zIntId(MONEY_MESSAGES.costNotFound),
});

export const ZCost = z.object({
  id: z.number(),
  type: z.enum(COST_TYPES),
  truck_id: z.string().nullable(),
  plate: z.string().nullable(),
  amount: z.number(),
  description: z.string(),
  incurred_at: z.string(),
  is_duplicate: z.boolean(),
  duplicate_of: z.number().nullable(),
  confirmed_at: z.string().nullable(),
  source: z.enum(COST_SOURCES),
  voided: z.boolean(),
  assignment_id: z.number().nullable(),
});
export type TCost = z.infer<typeof ZCost>;

/** Empty numerics are sent as null (spec section 5). */
const blankToNullNumber = (v: unknown) =>
  v === undefined || (typeof v === 'string' && v.trim() === '') ? null : v;

export const ZFuelInput = z.object({
  truckId: zTextId(MONEY_MESSAGES.fuelTruck),
  litres: z.preprocess(blankToNullNumber, zLitres(MONEY_MESSAGES.litres).nullable()),
  odometer: z.preprocess(blankToNullNumber, zOdometerKm(MONEY_MESSAGES.odometer).nullable()),
  cost: z.preprocess(blankToUndefined, zKes(MONEY_MESSAGES.fuelCost, LIMITS.fuelCostKes, true)),
  note: zText({ label: 'Notes', max: 500, multiline: true }).optional().nullable(),
  capturedAt: zOptionalInstant(),
  photoData: z.preprocess(
    blankToUndefined,
    zText({ label: 'Photo', max: 8 * 1024 * 1024, tooLong: 'Images must be 5 MB or smaller.' }).optional(),
  ),
  overrideDuplicate: z.boolean().optional(),
  duplicateOf: ZDuplicateOf,
});
export type TFuelInput = z.infer<typeof ZFuelInput>;

export const ZFuelListInput = z.object({ limit: z.preprocess(blankToUndefined, zListLimit(50)) }).optional();

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

/** The earlier cost a suspected duplicate matches: the `existing` of the 409 the cost form compares. */
export const ZCostDuplicateOf = ZCost.pick({
  id: true,
  truck_id: true,
  type: true,
  amount: true,
  incurred_at: true,
  description: true,
  duplicate_of: true,
});
export type TCostDuplicateOf = z.infer<typeof ZCostDuplicateOf>;

/** The earlier fuel log a suspected duplicate matches: the `existing` of the 409 the fuel form compares. */
export const ZFuelDuplicateOf = z.object({
  id: z.number(),
  truck_id: z.string(),
  litres: z.number().nullable(),
  odometer: z.number().nullable(),
  cost: z.number(),
  captured_at: z.string(),
  note: z.string().nullable(),
  duplicate_of: z.number().nullable(),
});
export type TFuelDuplicateOf = z.infer<typeof ZFuelDuplicateOf>;

/** A duplicate-flagged record's state in the audit console (computed, not stored). */
export const AUDIT_STATUSES = ['pending', 'reviewed', 'voided'] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];
const ZDateOnly = z.preprocess(
  blankToUndefined,
  zCalendarDate('Dates are YYYY-MM-DD, and the day must exist.').optional(),
);

export const ZAuditListInput = z
  .object({
    limit: z.preprocess(blankToUndefined, zListLimit(400)),
    entity: z.preprocess(
      (v) => (typeof v === 'string' && v ? v.toLowerCase() : undefined),
      z.enum(['cost', 'fuel'], { error: 'Unknown record type.' }).optional(),
    ),
    status: z.preprocess(
      blankToUndefined,
      z.enum(AUDIT_STATUSES, { error: 'Choose pending, reviewed or voided.' }).optional(),
    ),
    type: z.preprocess(blankToUndefined, zText({ label: 'Type', max: 40 }).optional()),
    truckId: z.preprocess(blankToUndefined, zTextId(MONEY_MESSAGES.unknownTruck).optional()),
    from: ZDateOnly,
    to: ZDateOnly,
  })
  .optional();

export const ZAuditActionTarget = z.object({
  entity: z.preprocess(
    (v) => (typeof v === 'string' ? v.toLowerCase() : v),
    z.enum(['cost', 'fuel'], { error: 'Unknown record type.' }),
  ),
  id: zIntId(MONEY_MESSAGES.recordNotFound),
});
export const ZAuditReviewInput = ZAuditActionTarget.extend({
  note: zText({ label: 'Note', max: 500, multiline: true }).optional().nullable(),
});
export const ZAuditVoidInput = ZAuditActionTarget.extend({
  reason: zText({ label: 'Reason', max: 500, required: MONEY_MESSAGES.voidReason }),
  cascadeCost: z.boolean().optional(),
});
export type TAuditListInput = NonNullable<z.infer<typeof ZAuditListInput>>;
export type TAuditReviewInput = z.infer<typeof ZAuditReviewInput>;
export type TAuditVoidInput = z.infer<typeof ZAuditVoidInput>;

export const ZAuditActionResult = z.object({
  entity: z.enum(['cost', 'fuel']),
  id: z.number(),
  status: z.enum(['reviewed', 'voided']),
});
export type TAuditActionResult = z.infer<typeof ZAuditActionResult>;

export const ZAuditRecord = z.object({
  entity: z.enum(['COST', 'FUEL']),
  id: z.number(),
  status: z.enum(AUDIT_STATUSES),
  type: z.enum(COST_TYPES),
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

export const ZFinanceRange = z.object({ from: ZDateOnly, to: ZDateOnly });
export const ZFinanceRangeInput = ZFinanceRange.optional();
export type TFinanceRangeInput = z.infer<typeof ZFinanceRangeInput>;

export const ZFinanceSummary = z.object({
  revenue: z.number(),
  orders: z.number(),
  costTotal: z.number(),
  gross: z.number(),
  from: z.string(),
  to: z.string(),
});
export type TFinanceSummary = z.infer<typeof ZFinanceSummary>;
export const ZFinancePoint = z.object({ date: z.string(), revenue: z.number(), cost: z.number() });
export type TFinancePoint = z.infer<typeof ZFinancePoint>;
export const ZTruckBreakdownRow = z.object({
  truckId: z.string(),
  plate: z.string().nullable(),
  loads: z.number(),
  revenue: z.number(),
  cost: z.number(),
  gross: z.number(),
  margin: z.number().nullable(),
});
export type TTruckBreakdownRow = z.infer<typeof ZTruckBreakdownRow>;
export const ZCostMixRow = z.object({ type: z.enum(COST_TYPES), amount: z.number() });
export type TCostMixRow = z.infer<typeof ZCostMixRow>;
