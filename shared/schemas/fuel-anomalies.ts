import { z } from 'zod';
import { FUEL_ANOMALY_KINDS, FUEL_ANOMALY_STATUSES } from '../enums';
import { blankToUndefined, zIntId, zListLimit, zText } from './common';

export const FUEL_ANOMALY_MESSAGES = {
  notFound: 'Fuel anomaly not found.',
  reasonRequired: 'Give a reason for dismissing the finding.',
  alreadyClosed: 'This finding was already reviewed or dismissed.',
} as const;

export const ZFuelAnomaly = z.object({
  id: z.number(),
  fuelLogId: z.number(),
  truckId: z.string(),
  plate: z.string().nullable(),
  kind: z.enum(FUEL_ANOMALY_KINDS),
  detail: z.string(),
  status: z.enum(FUEL_ANOMALY_STATUSES),
  reason: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  createdAt: z.string(),
  /** The fuel log's capture time, litres and who entered it. */
  capturedAt: z.string(),
  litres: z.number().nullable(),
  odometer: z.number().nullable(),
  enteredBy: z.string().nullable(),
});
export type TFuelAnomaly = z.infer<typeof ZFuelAnomaly>;

export const ZFuelAnomalyListInput = z
  .object({
    status: z.enum(FUEL_ANOMALY_STATUSES, { error: 'Status is open, reviewed or dismissed.' }).optional(),
    truckId: z.preprocess(blankToUndefined, zText({ label: 'Truck', max: 40 }).optional()),
    limit: zListLimit(400),
  })
  .optional();
export type TFuelAnomalyListInput = z.infer<typeof ZFuelAnomalyListInput>;

/** Reviewed (the finding was looked at; it stands as a known fact) or dismissed with a reason. */
export const ZFuelAnomalyReviewInput = z
  .object({
    id: zIntId(FUEL_ANOMALY_MESSAGES.notFound),
    decision: z.enum(['reviewed', 'dismissed'], { error: 'Choose reviewed or dismissed.' }),
    reason: z.preprocess(blankToUndefined, zText({ label: 'Reason', max: 500, multiline: true }).optional()),
  })
  .refine((v) => v.decision !== 'dismissed' || !!v.reason, {
    message: FUEL_ANOMALY_MESSAGES.reasonRequired,
    path: ['reason'],
  });
export type TFuelAnomalyReviewInput = z.infer<typeof ZFuelAnomalyReviewInput>;
