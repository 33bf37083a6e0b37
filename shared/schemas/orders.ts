import { z } from 'zod';
import { MAX_TRUCKS_PER_ORDER, MESSAGES, MIN_TRUCKS_PER_ORDER, PASSWORD_MIN_LENGTH } from '../constants';
import {
  ASSIGNMENT_STATUSES,
  DISTANCE_SOURCES,
  LANGUAGES,
  ORDER_PAYMENT_STATUSES,
  ORDER_STATUSES,
  SAND_TYPES,
  SITE_SOURCES,
} from '../enums';
import { ZEmail, ZPersonName, ZPhone } from './auth';
import { blankToUndefined, zCalendarDate, zDistanceKm, zIntId, zNumber, zText } from './common';
import { orderDocumentFields, ZKraPin } from './invoices';
import { ZDeliveryProof } from './loads';
import { ZListedPayment } from './payments';

export const ORDER_MESSAGES = {
  siteRequired: 'Site is required.',
  trucksRange: `Trucks must be between ${MIN_TRUCKS_PER_ORDER} and ${MAX_TRUCKS_PER_ORDER}.`,
  sandType: 'Choose coarse or smooth sand.',
  distance: 'Distance must be a number of kilometres greater than zero.',
  dateNeeded: 'Choose the date you need the sand.',
  phoneRequired: 'Phone is required.',
  portalEmailRequired: 'Email is required to create your portal login.',
  referenceRequired: 'Payment reference is required.',
  methodInvalid: 'Choose one of the listed banks or M-Pesa paybill.',
  accountExists:
    'An account with this email already exists. Sign in to place your order, or order without a portal login.',
  orderNotFound: 'Order not found.',
  paymentClosed: 'This order no longer takes payment confirmations.',
} as const;

export const ZSandType = z.enum(SAND_TYPES, { error: ORDER_MESSAGES.sandType });
export const ZTrucks = zNumber({
  message: ORDER_MESSAGES.trucksRange,
  min: MIN_TRUCKS_PER_ORDER,
  max: MAX_TRUCKS_PER_ORDER,
  maxMessage: ORDER_MESSAGES.trucksRange,
  decimals: 0,
  decimalsMessage: ORDER_MESSAGES.trucksRange,
});
export const ZSite = zText({ label: 'Site description', max: 300, required: ORDER_MESSAGES.siteRequired });
/** Sent only when the customer fills it in; empty, null and absent all mean "estimate it". */
export const ZOptionalDistance = z.preprocess(
  blankToUndefined,
  zDistanceKm(ORDER_MESSAGES.distance).optional(),
);
export const ZDateNeeded = zCalendarDate(ORDER_MESSAGES.dateNeeded);
/** The customer asks for delivery outside the transport window (an overnight pour). */
export const ZOvernightPour = z.boolean({ error: 'Overnight pour is true or false.' }).optional();

export const ZQuoteInput = z.object({
  site: ZSite,
  trucks: ZTrucks.default(1),
  sandType: ZSandType.default('coarse'),
  distanceKm: ZOptionalDistance,
});
export type TQuoteInput = z.infer<typeof ZQuoteInput>;

export const ZDistanceSource = z.enum(DISTANCE_SOURCES);

export const ZQuote = z.object({
  perTruck: z.number(),
  total: z.number(),
  truckCount: z.number(),
  distanceKm: z.number(),
  distanceSource: ZDistanceSource,
});
export type TQuote = z.infer<typeof ZQuote>;

export const ZPortalAccount = z
  .object({
    password: zText({ label: 'Password', max: 200, missing: MESSAGES.passwordTooShort }).min(
      PASSWORD_MIN_LENGTH,
      MESSAGES.passwordTooShort,
    ),
    confirmPassword: zText({ label: 'Password confirmation', max: 200 }).optional(),
    /** The device's language: the new login starts with it. */
    language: z.enum(LANGUAGES).optional(),
  })
  .refine((a) => a.confirmPassword === undefined || a.confirmPassword === a.password, {
    message: MESSAGES.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });

export const ZGuestOrderInput = z
  .object({
    name: ZPersonName,
    phone: ZPhone.min(1, ORDER_MESSAGES.phoneRequired),
    email: z.preprocess(blankToUndefined, ZEmail.optional()),
    site: ZSite,
    sandType: ZSandType,
    trucks: ZTrucks,
    distanceKm: ZOptionalDistance,
    dateNeeded: ZDateNeeded,
    overnightPour: ZOvernightPour,
    /** The buyer's KRA PIN, printed on the tax invoice (optional). */
    kraPin: ZKraPin,
    account: ZPortalAccount.optional().nullable(),
  })
  .superRefine((o, ctx) => {
    if (o.account && !o.email)
      ctx.addIssue({ code: 'custom', path: ['email'], message: ORDER_MESSAGES.portalEmailRequired });
  });
export type TGuestOrderInput = z.infer<typeof ZGuestOrderInput>;

export const ZOrderInput = z.object({
  site: ZSite,
  sandType: ZSandType,
  trucks: ZTrucks,
  distanceKm: ZOptionalDistance,
  dateNeeded: z.preprocess(blankToUndefined, ZDateNeeded.optional()),
  overnightPour: ZOvernightPour,
  /** The buyer's KRA PIN, printed on the tax invoice (optional). */
  kraPin: ZKraPin,
});
export type TOrderInput = z.infer<typeof ZOrderInput>;

export const ZOrderStatus = z.enum(ORDER_STATUSES);
export const ZPaymentStatus = z.enum(ORDER_PAYMENT_STATUSES);

export const ZOrderCreated = z.object({
  id: z.number(),
  status: ZOrderStatus,
  perTruck: z.number(),
  total: z.number(),
  distanceKm: z.number(),
  distanceSource: ZDistanceSource,
  truckCount: z.number(),
  sandType: ZSandType,
  /** The account number to quote with the paybill: `MCH<id>`. */
  accountRef: z.string(),
});
export type TOrderCreated = z.infer<typeof ZOrderCreated>;

export const ZGuestOrderResult = ZOrderCreated.extend({
  /** Lets whoever placed a guest order ask for its M-Pesa prompt (and follow it) for 24 h. */
  paymentToken: z.string().optional(),
  /**
   * A guest's way back to the order without a portal login: its public tracking page, and the 4-digit
   * code to give the driver at the site.
   */
  trackingUrl: z.string().optional(),
  deliveryCode: z.string().optional(),
  account: z
    .object({
      token: z.string(),
      user: z.object({
        id: z.number(),
        role: z.string(),
        name: z.string(),
        email: z.string(),
        driverId: z.string().nullable().optional(),
      }),
    })
    .optional(),
});
export type TGuestOrderResult = z.infer<typeof ZGuestOrderResult>;

export const ZPaymentConfirmationInput = z.object({
  id: zIntId(ORDER_MESSAGES.orderNotFound),
  method: zText({ label: 'Payment method', max: 64, required: ORDER_MESSAGES.methodInvalid }),
  reference: zText({ label: 'Payment reference', max: 64, required: ORDER_MESSAGES.referenceRequired }),
  message: zText({ label: 'Message', max: 1000, multiline: true }).optional().nullable(),
});
export type TPaymentConfirmationInput = z.infer<typeof ZPaymentConfirmationInput>;

/** Where an order stands after a payment confirmation or review. */
export const ZPaymentOutcome = z.object({ status: ZOrderStatus, paymentStatus: ZPaymentStatus });
export type TPaymentOutcome = z.infer<typeof ZPaymentOutcome>;

export const ZListedAssignment = z.object({
  id: z.number(),
  truck_id: z.string(),
  truckId: z.string(),
  plate: z.string().nullable(),
  tonnes: z.number(),
  scheduledAt: z.string().nullable(),
  status: z.enum(ASSIGNMENT_STATUSES),
  driver: z.string().nullable(),
  scheduledBeforePayment: z.boolean(),
  inTransitAt: z.string().nullable().optional(),
  arrivedAt: z.string().nullable().optional(),
  deliveredAt: z.string().nullable().optional(),
  /** The proof of delivery, in staff listings (null for the customer's, and before delivery). */
  proof: ZDeliveryProof.nullable().optional(),
  /** Staff listings: delivered by operations by hand, with no proof of delivery. */
  withoutProof: z.boolean().optional(),
  /** Staff listings: why ADMIN loaded it above the legal gross weight (null when within the limit). */
  overrideReason: z.string().nullable().optional(),
  /** Staff listings: scheduled or moved outside the transport hours (flagged, not refused). */
  outsideWindow: z.boolean().optional(),
});

export const ZListedOrder = z.object({
  id: z.number(),
  created_at: z.string(),
  site: z.string(),
  status: ZOrderStatus,
  payment_status: ZPaymentStatus,
  sand_type: ZSandType,
  trucks: z.number(),
  per_truck: z.number(),
  total: z.number(),
  distance_km: z.number(),
  distance_source: ZDistanceSource,
  date_needed: z.string().nullable(),
  overnight_pour: z.boolean(),
  assignments: z.array(ZListedAssignment),
  name: z.string(),
  email: z.string(),
  /** The phone given with the order, as typed ('' when none). */
  phone: z.string(),
  /** The account number to quote with the paybill: `MCH<id>`. */
  accountRef: z.string(),
  /** KES paid by payments that carry an amount (M-Pesa), what is still owed, and any overpayment. */
  paid: z.number(),
  balance: z.number(),
  credit: z.number(),
  payments: z.array(ZListedPayment),
  /** The site's point and geofence radius (null until known: geocoder, gazetteer, pin, shared location or driver). */
  siteLat: z.number().nullable(),
  siteLng: z.number().nullable(),
  siteRadiusM: z.number().nullable(),
  siteSource: z.enum(SITE_SOURCES).nullable(),
  /** The customer's public tracking page: `/track/{token}`. */
  trackingUrl: z.string(),
  /** The 4-digit code the customer gives the driver at delivery (in the customer's own listing only). */
  deliveryCode: z.string().optional(),
  /** The receipt (tax invoice) PDF, its KRA eTIMS status and the credit notes (issue 23). */
  ...orderDocumentFields,
});
export type TListedOrder = z.infer<typeof ZListedOrder>;
