import { z } from 'zod';
import { ASSIGNMENT_STATUSES } from '../enums';
import { ZEmail, ZPersonName, ZPhone } from './auth';
import { blankToUndefined, LIMITS, zIntId, zKes, zOptionalInstant, zText, zTextId, zTonnes } from './common';
import { ZKraPin } from './invoices';
import { ZDeliveryProof, ZLoadEvent } from './loads';
import { ZDateNeeded, ZOptionalDistance, ZOvernightPour, ZSandType, ZSite, ZTrucks } from './orders';

export const ADMIN_ORDER_MESSAGES = {
  orderNotFound: 'Order not found.',
  assignmentNotFound: 'Assignment not found.',
  truckRequired: 'Select a truck.',
  driverRequired: 'Select a driver.',
  tonnes: 'Tonnes must be greater than zero.',
  override: 'Per-truck price must be greater than zero.',
  orderClosed: 'This order is closed; it takes no more loads.',
  rejectReason: 'Give a reason for rejecting the payment.',
  noPayment: 'There is no payment confirmation to review. Enter the payment reference to record it.',
  paymentReviewed: 'This payment has already been reviewed.',
  badTransition: (from: string, to: string) =>
    `A load that is ${from.toLowerCase().replace('_', ' ')} cannot move to ${to.toLowerCase().replace('_', ' ')}.`,
  notYourLoad: 'This load is assigned to another driver.',
  driverCannotCancel: 'Only operations can cancel a load.',
  onlyForward: 'Only operations can move a load back.',
  needsProof:
    "A load is marked delivered with a proof of delivery: a photo and the customer's delivery code, or the receiver's name.",
  handDeliveryReason: 'Give a reason for marking the load delivered without a proof of delivery.',
  photoRequired: 'Take a photo of the delivered load.',
  codeFormat: 'The delivery code is 4 digits.',
  codeOrReceiver: "Enter the customer's delivery code, or the receiver's name if they do not have it.",
  wrongCode: (left: number) =>
    left > 0
      ? `That delivery code is wrong. ${left} ${left === 1 ? 'try' : 'tries'} left.`
      : "That delivery code is wrong. No tries are left: record the receiver's name with the photo.",
  tooManyCodes:
    "Too many wrong delivery codes on this order. Record the receiver's name with the photo; operations will check it.",
  reason: 'Reason',
  unknownCustomer: 'No customer with that ID exists.',
  orderFull: (remaining: number, ordered: number) =>
    remaining > 0
      ? `Only ${tonnesText(remaining)} t remain to schedule on this order.`
      : `No tonnes remain to schedule on this order: all ${tonnesText(ordered)} t are scheduled.`,
  overCapacity: (plate: string, capacity: number) =>
    `${plate} carries at most ${tonnesText(capacity)} t; schedule ${tonnesText(capacity)} t or less on it.`,
  unpaid: "This order's payment is not confirmed yet. Confirming schedules the load before payment.",
} as const;

/** 20, 6.5, 6.67: tonnes as a sentence says them. */
function tonnesText(tonnes: number): string {
  return String(Number(tonnes.toFixed(2)));
}

export const ZAdminOrdersListInput = z
  .object({
    assigned: z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean().optional()),
  })
  .optional();

export const ZAdminOrderCreateInput = z.object({
  name: ZPersonName,
  email: z.preprocess(blankToUndefined, ZEmail.optional()),
  phone: ZPhone.optional().default(''),
  site: ZSite,
  sandType: ZSandType,
  /** The same limit as every other order; a phone order defaults to one truck. */
  trucks: z.preprocess((v) => (v === '' || v === null || v === undefined ? 1 : v), ZTrucks),
  distanceKm: ZOptionalDistance,
  dateNeeded: z.preprocess(blankToUndefined, ZDateNeeded.optional()),
  overnightPour: ZOvernightPour,
  customerId: z.preprocess(blankToUndefined, zIntId(ADMIN_ORDER_MESSAGES.unknownCustomer).optional()),
  perTruckOverride: z.preprocess(
    blankToUndefined,
    zKes(ADMIN_ORDER_MESSAGES.override, LIMITS.perTruckKes).optional(),
  ),
  /** The buyer's KRA PIN, printed on the tax invoice (optional). */
  kraPin: ZKraPin,
});
export type TAdminOrderCreateInput = z.infer<typeof ZAdminOrderCreateInput>;

export const ZOrderIdInput = z.object({ id: zIntId(ADMIN_ORDER_MESSAGES.orderNotFound) });

export const ZAddAssignmentInput = z.object({
  id: zIntId(ADMIN_ORDER_MESSAGES.orderNotFound),
  truckId: zTextId(ADMIN_ORDER_MESSAGES.truckRequired),
  driverId: zTextId(ADMIN_ORDER_MESSAGES.driverRequired),
  /** Blank: the truck's capacity, or what remains on the order if that is less. */
  tonnes: z.preprocess(blankToUndefined, zTonnes(ADMIN_ORDER_MESSAGES.tonnes).optional()),
  scheduledAt: zOptionalInstant(),
  /** ADMIN's confirmation that the load goes out before the payment is confirmed. */
  confirmUnpaid: z.boolean().optional(),
  /** ADMIN loads the truck above its legal gross weight (recorded with the reason, shown on the load). */
  overrideLegalLimit: z.boolean().optional(),
  overrideReason: z.preprocess(blankToUndefined, zText({ label: 'Override reason', max: 300 }).optional()),
  /** ADMIN schedules a load of an account on terms past its credit limit (recorded with the reason). */
  overrideCreditLimit: z.boolean().optional(),
});
export type TAddAssignmentInput = z.infer<typeof ZAddAssignmentInput>;

export const ZReviewPaymentInput = z
  .object({
    id: zIntId(ADMIN_ORDER_MESSAGES.orderNotFound),
    decision: z.enum(['confirm', 'reject'], { error: 'Choose confirm or reject.' }),
    note: zText({ label: 'Note', max: 500, multiline: true }).optional(),
    method: zText({ label: 'Payment method', max: 64 }).optional(),
    reference: zText({ label: 'Payment reference', max: 64 }).optional(),
  })
  .refine((v) => v.decision !== 'reject' || (v.note ?? '').length > 0, {
    message: ADMIN_ORDER_MESSAGES.rejectReason,
    path: ['note'],
  });

export type TReviewPaymentInput = z.infer<typeof ZReviewPaymentInput>;

export const ZAssignmentStatus = z.enum(ASSIGNMENT_STATUSES, { error: 'Choose a valid load status.' });
/** A move by hand, and why (the geofences move loads by themselves; a hand move says what they missed). */
export const ZSetAssignmentStatusInput = z.object({
  id: zIntId(ADMIN_ORDER_MESSAGES.assignmentNotFound),
  status: ZAssignmentStatus,
  reason: z.preprocess(blankToUndefined, zText({ label: ADMIN_ORDER_MESSAGES.reason, max: 300 }).optional()),
});
export type TSetAssignmentStatusInput = z.infer<typeof ZSetAssignmentStatusInput>;

/** Wrong codes an order takes before only a receiver's name (flagged for operations) will do. */
export const DELIVERY_CODE_ATTEMPTS = 5;

const ZCoordinate = (max: number) => z.preprocess(blankToUndefined, z.number().min(-max).max(max).optional());

/**
 * Proof of delivery: a photo (a data URL, re-encoded like every upload) and the customer's 4-digit code,
 * or, when the customer cannot give it, the receiver's name (the load is flagged for operations). The
 * phone's position, when it has one, may set or refine the site's point.
 */
export const ZDeliveryProofInput = z
  .object({
    id: zIntId(ADMIN_ORDER_MESSAGES.assignmentNotFound),
    photoData: zText({
      label: 'Photo',
      max: 8 * 1024 * 1024,
      required: ADMIN_ORDER_MESSAGES.photoRequired,
      tooLong: 'Images must be 5 MB or smaller.',
    }),
    code: z.preprocess(
      (v) => (typeof v === 'number' ? String(v).padStart(4, '0') : blankToUndefined(v)),
      z
        .string()
        .trim()
        .regex(/^\d{4}$/, ADMIN_ORDER_MESSAGES.codeFormat)
        .optional(),
    ),
    receiverName: z.preprocess(blankToUndefined, zText({ label: 'Receiver name', max: 120 }).optional()),
    lat: ZCoordinate(90),
    lng: ZCoordinate(180),
  })
  .refine((v) => v.code !== undefined || v.receiverName !== undefined, {
    message: ADMIN_ORDER_MESSAGES.codeOrReceiver,
    path: ['code'],
  });
export type TDeliveryProofInput = z.infer<typeof ZDeliveryProofInput>;

export const ZAssignment = z.object({
  id: z.number(),
  orderId: z.number(),
  truck_id: z.string(),
  truckId: z.string(),
  plate: z.string().nullable(),
  tonnes: z.number(),
  scheduledAt: z.string().nullable(),
  status: ZAssignmentStatus,
  driver: z.string().nullable(),
  driverId: z.string().nullable(),
  inTransitAt: z.string().nullable(),
  arrivedAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  scheduledBeforePayment: z.boolean(),
  /** Loaded above the legal gross weight by ADMIN's override, and why. */
  overrideLegalLimit: z.boolean(),
  overrideReason: z.string().nullable(),
  /** Scheduled or moved outside the transport hours (flagged to operations, not refused). */
  outsideWindow: z.boolean().optional(),
  proof: ZDeliveryProof.nullable(),
  /** Delivered by operations by hand, with no proof of delivery: operations checks it. */
  withoutProof: z.boolean(),
  history: z.array(ZLoadEvent),
});
export type TAssignment = z.infer<typeof ZAssignment>;
