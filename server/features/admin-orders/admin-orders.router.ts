import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { assignments, drivers, orders, payments, trucks, users } from '../../../drizzle/schema';
import { localDate } from '../../../shared/domain/time';
import { canonicalPaymentMethod } from '../../../shared/payments';
import {
  ADMIN_ORDER_MESSAGES,
  ZAddAssignmentInput,
  ZAdminOrderCreateInput,
  ZAdminOrdersListInput,
  ZAssignment,
  ZOrderIdInput,
  ZReviewPaymentInput,
  ZSetAssignmentStatusInput,
} from '../../../shared/schemas/admin-orders';
import { FLEET_MESSAGES } from '../../../shared/schemas/fleet';
import { ZListedOrder, ZOrderCreated, ZOrderStatus, ZPaymentStatus } from '../../../shared/schemas/orders';
import { emitAlert } from '../../alerts';
import { appError } from '../../errors';
import { roleProcedure, router } from '../../trpc';
import { listOrders, toOrderCreated } from '../orders/orders.queries';
import { quoteFor } from '../pricing/pricing.service';
import { stockSummary } from '../stock/stock.queries';
import { assignedFilter, listAssignments, moveLoad } from './assignments.service';

const adminProcedure = roleProcedure('ADMIN');
/** Yard stock below this many tonnes raises a stock.low alert (STOCK_LOW_TONNES, default 100). */
const STOCK_LOW_TONNES = Number(process.env.STOCK_LOW_TONNES ?? 100);

export const adminOrdersRouter = router({
  list: adminProcedure
    .input(ZAdminOrdersListInput)
    .output(ZListedOrder.array())
    .query(({ ctx, input }) => listOrders(ctx.db, assignedFilter(input?.assigned))),

  /** An order taken by phone: the quote, or the admin's per-truck override. */
  create: adminProcedure
    .input(ZAdminOrderCreateInput)
    .output(ZOrderCreated)
    .mutation(async ({ ctx, input }) => {
      if (input.customerId) {
        const [c] = await ctx.db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.id, input.customerId), eq(users.role, 'CUSTOMER')))
          .limit(1);
        if (!c) throw appError('BAD_REQUEST', ADMIN_ORDER_MESSAGES.unknownCustomer);
      }
      const quote = await quoteFor(ctx, { ...input, perTruckOverride: input.perTruckOverride ?? null });
      const [order] = await ctx.db
        .insert(orders)
        .values({
          createdAt: ctx.now(),
          updatedAt: ctx.now(),
          customerId: input.customerId ?? null,
          createdById: ctx.user.id,
          name: input.name,
          phone: input.phone,
          email: input.email ?? '',
          site: input.site,
          sandType: input.sandType,
          trucks: input.trucks,
          perTruckCents: Math.round(quote.perTruck * 100),
          totalCents: Math.round(quote.total * 100),
          distanceKm: quote.distanceKm,
          distanceSource: quote.distanceSource,
          dateNeeded: input.dateNeeded ?? null,
          priceOverridden: input.perTruckOverride !== undefined,
        })
        .returning();
      return toOrderCreated(order!);
    }),

  assignments: adminProcedure
    .input(ZOrderIdInput)
    .output(ZAssignment.array())
    .query(({ ctx, input }) => listAssignments(ctx.db, input.id)),

  addAssignment: adminProcedure
    .input(ZAddAssignmentInput)
    .output(ZAssignment)
    .mutation(async ({ ctx, input }) => {
      const [order] = await ctx.db.select().from(orders).where(eq(orders.id, input.id)).limit(1);
      if (!order) throw appError('NOT_FOUND', ADMIN_ORDER_MESSAGES.orderNotFound);
      if (order.status === 'DELIVERED' || order.status === 'CANCELLED')
        throw appError('CONFLICT', ADMIN_ORDER_MESSAGES.orderClosed);
      const [truck] = await ctx.db
        .select({ id: trucks.id })
        .from(trucks)
        .where(eq(trucks.id, input.truckId))
        .limit(1);
      if (!truck) throw appError('BAD_REQUEST', FLEET_MESSAGES.unknownTruck);
      const [driver] = await ctx.db
        .select({ id: drivers.id })
        .from(drivers)
        .where(eq(drivers.id, input.driverId))
        .limit(1);
      if (!driver) throw appError('BAD_REQUEST', FLEET_MESSAGES.unknownDriver);
      const [row] = await ctx.db
        .insert(assignments)
        .values({
          orderId: order.id,
          truckId: input.truckId,
          driverId: input.driverId,
          tonnes: input.tonnes,
          scheduledAt: input.scheduledAt ?? null,
          createdById: ctx.user.id,
        })
        .returning({ id: assignments.id });
      return (await listAssignments(ctx.db, order.id)).find((a) => a.id === row!.id)!;
    }),

  /** Ops' review of a payment: confirm (order Received) or reject with a reason (back to Awaiting Payment). */
  reviewPayment: adminProcedure
    .input(ZReviewPaymentInput)
    .output(z.object({ status: ZOrderStatus, paymentStatus: ZPaymentStatus }))
    .mutation(async ({ ctx, input }) => {
      const now = ctx.now();
      return ctx.db.transaction(async (tx) => {
        const [order] = await tx.select().from(orders).where(eq(orders.id, input.id)).for('update').limit(1);
        if (!order) throw appError('NOT_FOUND', ADMIN_ORDER_MESSAGES.orderNotFound);
        if (order.paymentStatus === 'CONFIRMED')
          throw appError('CONFLICT', ADMIN_ORDER_MESSAGES.paymentReviewed);
        const [submitted] = await tx
          .select()
          .from(payments)
          .where(and(eq(payments.orderId, order.id), eq(payments.status, 'SUBMITTED')))
          .orderBy(desc(payments.createdAt))
          .limit(1);
        const review = {
          reviewedById: ctx.user.id,
          reviewedAt: now,
          reviewNote: input.note || null,
          updatedAt: now,
        };
        if (input.decision === 'reject') {
          if (!submitted) throw appError('CONFLICT', ADMIN_ORDER_MESSAGES.noPayment);
          await tx
            .update(payments)
            .set({ status: 'REJECTED', ...review })
            .where(eq(payments.id, submitted.id));
          const [o] = await tx
            .update(orders)
            .set({ status: 'AWAITING_PAYMENT', paymentStatus: 'REJECTED', updatedAt: now })
            .where(eq(orders.id, order.id))
            .returning();
          return { status: o!.status, paymentStatus: o!.paymentStatus };
        }
        if (submitted) {
          await tx
            .update(payments)
            .set({ status: 'CONFIRMED', ...review })
            .where(eq(payments.id, submitted.id));
        } else {
          // Paid by phone or at the yard: ops records the reference it was given.
          const method = canonicalPaymentMethod(input.method ?? '') ?? 'M-Pesa paybill';
          if (!input.reference) throw appError('CONFLICT', ADMIN_ORDER_MESSAGES.noPayment);
          const [same] = await tx
            .select({ id: payments.id })
            .from(payments)
            .where(
              and(
                eq(payments.orderId, order.id),
                sql`lower(${payments.reference}) = lower(${input.reference})`,
              ),
            )
            .limit(1);
          if (same)
            await tx
              .update(payments)
              .set({ status: 'CONFIRMED', ...review })
              .where(eq(payments.id, same.id));
          else
            await tx.insert(payments).values({
              orderId: order.id,
              method,
              reference: input.reference,
              status: 'CONFIRMED',
              submittedById: ctx.user.id,
              ...review,
            });
        }
        const moveOn = order.status === 'AWAITING_PAYMENT' || order.status === 'PAYMENT_REVIEW';
        const [o] = await tx
          .update(orders)
          .set({
            paymentStatus: 'CONFIRMED',
            ...(moveOn ? { status: 'RECEIVED' as const } : {}),
            updatedAt: now,
          })
          .where(eq(orders.id, order.id))
          .returning();
        return { status: o!.status, paymentStatus: o!.paymentStatus };
      });
    }),

  /** Ops, or the driver the load is assigned to, moves a load on. */
  setAssignmentStatus: roleProcedure('ADMIN', 'OPS', 'DRIVER')
    .input(ZSetAssignmentStatusInput)
    .output(ZAssignment)
    .mutation(async ({ ctx, input }) => {
      const moved = await moveLoad(ctx.db, ctx.user, input.id, input.status, ctx.now());
      if (moved.status === 'DELIVERED') {
        // Low yard stock alerts once a day, when a delivery takes stock under the threshold.
        const stock = await stockSummary(ctx);
        if (stock.tonnes < STOCK_LOW_TONNES)
          await emitAlert(ctx.deps, 'stock.low', `yard@${localDate(ctx.now())}`);
      }
      return (await listAssignments(ctx.db, moved.orderId)).find((a) => a.id === moved.id)!;
    }),
});
