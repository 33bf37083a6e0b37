import { z } from 'zod';
import { MAX_TRUCKS_PER_ORDER, MESSAGES, MIN_TRUCKS_PER_ORDER, PASSWORD_MIN_LENGTH } from '../constants';
import { ZEmail, ZPersonName, ZPhone } from './auth';

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
  notYourOrder: 'This order belongs to another customer.',
  paymentClosed: 'This order no longer takes payment confirmations.',
} as const;

export const ZSandType = z.enum(['coarse', 'smooth'], { error: ORDER_MESSAGES.sandType });
export const ZTrucks = z.coerce
  .number({ error: ORDER_MESSAGES.trucksRange })
  .int(ORDER_MESSAGES.trucksRange)
  .min(MIN_TRUCKS_PER_ORDER, ORDER_MESSAGES.trucksRange)
  .max(MAX_TRUCKS_PER_ORDER, ORDER_MESSAGES.trucksRange);
export const ZSite = z
  .string({ error: ORDER_MESSAGES.siteRequired })
  .trim()
  .min(1, ORDER_MESSAGES.siteRequired)
  .max(300, 'Site description is too long.');
/** Sent only when the customer fills it in; empty, null and absent all mean "estimate it". */
export const ZOptionalDistance = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.coerce
    .number({ error: ORDER_MESSAGES.distance })
    .positive(ORDER_MESSAGES.distance)
    .max(2000, ORDER_MESSAGES.distance)
    .optional(),
);
export const ZDateNeeded = z
  .string({ error: ORDER_MESSAGES.dateNeeded })
  .regex(/^\d{4}-\d{2}-\d{2}$/, ORDER_MESSAGES.dateNeeded)
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), ORDER_MESSAGES.dateNeeded);

export const ZQuoteInput = z.object({
  site: ZSite,
  trucks: ZTrucks.default(1),
  sandType: ZSandType.default('coarse'),
  distanceKm: ZOptionalDistance,
});
export type TQuoteInput = z.infer<typeof ZQuoteInput>;

export const ZDistanceSource = z.enum(['manual', 'geocoded', 'heuristic', 'default']);

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
    password: z
      .string({ error: MESSAGES.passwordTooShort })
      .trim()
      .min(PASSWORD_MIN_LENGTH, MESSAGES.passwordTooShort)
      .max(200),
    confirmPassword: z.string().trim().optional(),
  })
  .refine((a) => a.confirmPassword === undefined || a.confirmPassword === a.password, {
    message: MESSAGES.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });

export const ZGuestOrderInput = z
  .object({
    name: ZPersonName,
    phone: ZPhone.min(1, ORDER_MESSAGES.phoneRequired),
    email: z.preprocess((v) => (v === '' || v === null ? undefined : v), ZEmail.optional()),
    site: ZSite,
    sandType: ZSandType,
    trucks: ZTrucks,
    distanceKm: ZOptionalDistance,
    dateNeeded: ZDateNeeded,
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
  dateNeeded: z.preprocess((v) => (v === '' || v === null ? undefined : v), ZDateNeeded.optional()),
});
export type TOrderInput = z.infer<typeof ZOrderInput>;

export const ZOrderStatus = z.enum([
  'AWAITING_PAYMENT',
  'PAYMENT_REVIEW',
  'RECEIVED',
  'IN_TRANSIT',
  'DELIVERED',
  'CANCELLED',
]);
export const ZPaymentStatus = z.enum(['PENDING', 'SUBMITTED', 'CONFIRMED', 'REJECTED']);

export const ZOrderCreated = z.object({
  id: z.number(),
  status: ZOrderStatus,
  perTruck: z.number(),
  total: z.number(),
  distanceKm: z.number(),
  distanceSource: ZDistanceSource,
  truckCount: z.number(),
  sandType: ZSandType,
});
export type TOrderCreated = z.infer<typeof ZOrderCreated>;

export const ZGuestOrderResult = ZOrderCreated.extend({
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
  id: z.coerce.number({ error: ORDER_MESSAGES.orderNotFound }).int().positive(ORDER_MESSAGES.orderNotFound),
  method: z.string({ error: ORDER_MESSAGES.methodInvalid }).trim().min(1, ORDER_MESSAGES.methodInvalid),
  reference: z
    .string({ error: ORDER_MESSAGES.referenceRequired })
    .trim()
    .min(1, ORDER_MESSAGES.referenceRequired)
    .max(64, 'Payment reference is too long.'),
  message: z.string().trim().max(1000, 'Message is too long.').optional().nullable(),
});
export type TPaymentConfirmationInput = z.infer<typeof ZPaymentConfirmationInput>;

export const ZListedAssignment = z.object({
  id: z.number(),
  truck_id: z.string(),
  truckId: z.string(),
  plate: z.string().nullable(),
  tonnes: z.number(),
  scheduledAt: z.string().nullable(),
  status: z.string(),
  driver: z.string().nullable(),
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
  assignments: z.array(ZListedAssignment),
  name: z.string(),
  email: z.string(),
});
export type TListedOrder = z.infer<typeof ZListedOrder>;
