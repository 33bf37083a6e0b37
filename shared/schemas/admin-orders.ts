import { z } from 'zod';
import { ZPersonName, ZPhone } from './auth';
import { ZDateNeeded, ZOptionalDistance, ZSandType, ZSite } from './orders';

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
  unknownCustomer: 'No customer with that ID exists.',
} as const;

export const ZAdminOrdersListInput = z
  .object({
    assigned: z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean().optional()),
  })
  .optional();

export const ZAdminOrderCreateInput = z.object({
  name: ZPersonName,
  email: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.email({ error: 'Enter a valid email address.' }).optional(),
  ),
  phone: ZPhone.optional().default(''),
  site: ZSite,
  sandType: ZSandType,
  trucks: z.preprocess(
    (v) => (v === '' || v === null || v === undefined ? 1 : v),
    z.coerce
      .number({ error: 'Trucks must be between 1 and 20.' })
      .int('Trucks must be between 1 and 20.')
      .min(1, 'Trucks must be between 1 and 20.')
      .max(20, 'Trucks must be between 1 and 20.'),
  ),
  distanceKm: ZOptionalDistance,
  dateNeeded: z.preprocess((v) => (v === '' || v === null ? undefined : v), ZDateNeeded.optional()),
  customerId: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce.number().int().positive().optional(),
  ),
  perTruckOverride: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce
      .number({ error: ADMIN_ORDER_MESSAGES.override })
      .positive(ADMIN_ORDER_MESSAGES.override)
      .max(10_000_000)
      .optional(),
  ),
});
export type TAdminOrderCreateInput = z.infer<typeof ZAdminOrderCreateInput>;

export const ZOrderIdInput = z.object({
  id: z.coerce.number().int().positive(ADMIN_ORDER_MESSAGES.orderNotFound),
});

export const ZAddAssignmentInput = z.object({
  id: z.coerce.number().int().positive(ADMIN_ORDER_MESSAGES.orderNotFound),
  truckId: z
    .string({ error: ADMIN_ORDER_MESSAGES.truckRequired })
    .trim()
    .min(1, ADMIN_ORDER_MESSAGES.truckRequired),
  driverId: z
    .string({ error: ADMIN_ORDER_MESSAGES.driverRequired })
    .trim()
    .min(1, ADMIN_ORDER_MESSAGES.driverRequired),
  tonnes: z.preprocess(
    (v) => (v === '' || v === null || v === undefined ? 20 : v),
    z.coerce.number({ error: ADMIN_ORDER_MESSAGES.tonnes }).positive(ADMIN_ORDER_MESSAGES.tonnes).max(100),
  ),
  scheduledAt: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce.date({ error: 'Enter a valid date and time.' }).optional(),
  ),
});

export const ZReviewPaymentInput = z
  .object({
    id: z.coerce.number().int().positive(ADMIN_ORDER_MESSAGES.orderNotFound),
    decision: z.enum(['confirm', 'reject'], { error: 'Choose confirm or reject.' }),
    note: z.string().trim().max(500).optional(),
    method: z.string().trim().max(40).optional(),
    reference: z.string().trim().max(64).optional(),
  })
  .refine((v) => v.decision !== 'reject' || (v.note ?? '').length > 0, {
    message: ADMIN_ORDER_MESSAGES.rejectReason,
    path: ['note'],
  });

export const ASSIGNMENT_STATUSES = ['SCHEDULED', 'IN_TRANSIT', 'DELIVERED', 'CANCELLED'] as const;
export const ZSetAssignmentStatusInput = z.object({
  id: z.coerce.number().int().positive(ADMIN_ORDER_MESSAGES.assignmentNotFound),
  status: z.enum(ASSIGNMENT_STATUSES, { error: 'Choose a valid load status.' }),
});

export const ZAssignment = z.object({
  id: z.number(),
  orderId: z.number(),
  truck_id: z.string(),
  truckId: z.string(),
  plate: z.string().nullable(),
  tonnes: z.number(),
  scheduledAt: z.string().nullable(),
  status: z.string(),
  driver: z.string().nullable(),
  driverId: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type TAssignment = z.infer<typeof ZAssignment>;
