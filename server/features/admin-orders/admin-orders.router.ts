import { addAssignment, moveLoad, orderLoads, recordDelivery } from '../../../core/loads/loads.service';
import { placeAdminOrder, workspaceOrders } from '../../../core/orders/orders.service';
import { reviewPayment } from '../../../core/payments/payments.service';
import {
  ZAddAssignmentInput,
  ZAdminOrderCreateInput,
  ZAdminOrdersListInput,
  ZAssignment,
  ZDeliveryProofInput,
  ZOrderIdInput,
  ZReviewPaymentInput,
  ZSetAssignmentStatusInput,
} from '../../../shared/schemas/admin-orders';
import { ZListedOrder, ZOrderCreated, ZPaymentOutcome } from '../../../shared/schemas/orders';
import { idempotent } from '../../idempotency';
import { IMAGE_BODY_LIMIT, roleProcedure, router } from '../../trpc';

const adminProcedure = roleProcedure('ADMIN');

export const adminOrdersRouter = router({
  list: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/orders',
        summary: 'Orders (assigned=true|false filters)',
        example: { assigned: 'false' },
      },
    })
    .input(ZAdminOrdersListInput)
    .output(ZListedOrder.array())
    .query(({ ctx, input }) => workspaceOrders(ctx.db, input?.assigned, ctx.deps.settings)),

  /** An order taken by phone: the quote, or the admin's per-truck override. */
  create: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/orders',
        summary: 'Create an order for a customer',
        status: 201,
        example: {
          name: 'Wanjiru Builders',
          email: 'site@wanjiru.co.ke',
          phone: '0722000111',
          site: 'Ruiru, Kamakis',
          sandType: 'coarse',
          trucks: 2,
          dateNeeded: '2026-11-25',
          perTruckOverride: 31000,
        },
      },
    })
    .input(ZAdminOrderCreateInput)
    .output(ZOrderCreated)
    .mutation(({ ctx, input }) =>
      placeAdminOrder(ctx.db, ctx.deps, ctx.user, input, { ip: ctx.ip, now: ctx.now() }),
    ),

  assignments: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/orders/:id/assignments',
        summary: "An order's loads",
        example: { id: '42' },
      },
    })
    .input(ZOrderIdInput)
    .output(ZAssignment.array())
    .query(({ ctx, input }) => orderLoads(ctx.db, input.id, ctx.deps.settings)),

  addAssignment: adminProcedure
    .meta({
      // The phone's outbox sends it again after a lost answer: a replay answers the load it made.
      idempotent: true,
      rest: {
        method: 'POST',
        path: '/api/admin/orders/:id/assignments',
        summary:
          "Schedule a truck and driver for a load (within the order's trucks × 20 t and the truck's capacity; an unpaid order needs confirmUnpaid)",
        status: 201,
        errors: [404, 409],
        unpaidConflict: true,
        example: {
          id: '42',
          truckId: 'T-001',
          driverId: 'DRV-007',
          tonnes: 20,
          scheduledAt: '2026-11-24T05:30:00.000Z',
        },
      },
    })
    .input(ZAddAssignmentInput)
    .use(idempotent)
    .output(ZAssignment)
    .mutation(({ ctx, input }) => addAssignment(ctx.db, ctx.user, input, ctx.deps.settings, ctx.now())),

  /** Ops' review of a payment: confirm (order Received) or reject with a reason (back to Awaiting Payment). */
  reviewPayment: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/orders/:id/payment-review',
        summary: 'Confirm or reject a payment confirmation',
        errors: [409],
        example: { id: '42', decision: 'confirm', note: 'Seen on the Equity statement.' },
      },
    })
    .input(ZReviewPaymentInput)
    .output(ZPaymentOutcome)
    .mutation(({ ctx, input }) => reviewPayment(ctx.db, ctx.user, input, ctx.now())),

  /**
   * Ops, or the driver the load is assigned to, moves a load by hand (the geofences move it by
   * themselves); the move is recorded with who made it and why.
   */
  setAssignmentStatus: roleProcedure('ADMIN', 'OPS', 'DRIVER')
    .meta({
      idempotent: true,
      rest: {
        method: 'PATCH',
        path: '/api/admin/assignments/:id',
        summary:
          'Move a load by hand: SCHEDULED → IN_TRANSIT → ARRIVED, or CANCELLED (ops or the assigned driver; only ops moves one back); a driver delivers with the proof of delivery, ops may mark DELIVERED by hand (flagged as without proof)',
        errors: [404, 409],
        example: { id: '42', status: 'ARRIVED', reason: "The driver's phone lost its GPS" },
      },
    })
    .input(ZSetAssignmentStatusInput)
    .use(idempotent)
    .output(ZAssignment)
    .mutation(({ ctx, input }) =>
      moveLoad(ctx.db, ctx.user, input.id, input.status, ctx.now(), ctx.deps.settings, input.reason),
    ),

  /** Proof of delivery from the site (the driver's phone, or ops with the photo): the load is DELIVERED. */
  recordDelivery: roleProcedure('ADMIN', 'OPS', 'DRIVER')
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/assignments/:id/delivery',
        summary:
          "Deliver a load with its proof: a photo and the customer's 4-digit delivery code, or the receiver's name (flagged for operations); 5 wrong codes per order, then only the name",
        bodyLimit: IMAGE_BODY_LIMIT,
        errors: [404, 409, 413, 429],
        example: {
          id: '42',
          photoData: 'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQ==',
          code: '4821',
        },
      },
    })
    .input(ZDeliveryProofInput)
    .output(ZAssignment)
    .mutation(({ ctx, input }) => recordDelivery(ctx.db, ctx.deps.settings, ctx.user, input, ctx.now())),
});
