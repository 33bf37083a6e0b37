import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { orders, payments } from '../../../drizzle/schema';
import { MESSAGES } from '../../../shared/constants';
import { canonicalPaymentMethod } from '../../../shared/payments';
import {
  ORDER_MESSAGES,
  ZGuestOrderInput,
  ZGuestOrderResult,
  ZListedOrder,
  ZOrderCreated,
  ZOrderInput,
  ZOrderStatus,
  ZPaymentConfirmationInput,
  ZPaymentStatus,
} from '../../../shared/schemas/orders';
import { emitAlert } from '../../alerts';
import { appError } from '../../errors';
import { publicProcedure, roleProcedure, router } from '../../trpc';
import { createUser, issueSession } from '../auth/auth.service';
import { quoteFor } from '../pricing/pricing.service';
import { listOrders, toOrderCreated } from './orders.queries';

const customerProcedure = roleProcedure('CUSTOMER');

export const ordersRouter = router({
  /** A guest's order, optionally creating their portal login (signed in at once). */
  createGuest: publicProcedure
    .input(ZGuestOrderInput)
    .output(ZGuestOrderResult)
    .mutation(async ({ ctx, input }) => {
      const quote = await quoteFor(ctx, input);
      const result = await ctx.db.transaction(async (tx) => {
        let account: Awaited<ReturnType<typeof createUser>> | undefined;
        if (input.account) {
          try {
            account = await createUser(tx, {
              name: input.name,
              email: input.email!,
              phone: input.phone,
              password: input.account.password,
              role: 'CUSTOMER',
            });
          } catch (err) {
            // Never attach an order to somebody else's existing account.
            if (err instanceof Error && err.message === MESSAGES.emailTaken) {
              throw appError('CONFLICT', ORDER_MESSAGES.accountExists);
            }
            throw err;
          }
        }
        const [order] = await tx
          .insert(orders)
          .values({
            createdAt: ctx.now(),
            updatedAt: ctx.now(),
            customerId: account?.id ?? null,
            name: input.name,
            phone: input.phone,
            email: input.email ?? '',
            site: input.site,
            sandType: input.sandType,
            trucks: input.trucks,
            perTruckCents: quote.perTruck * 100,
            totalCents: quote.total * 100,
            distanceKm: quote.distanceKm,
            distanceSource: quote.distanceSource,
            dateNeeded: input.dateNeeded,
          })
          .returning();
        return { order: order!, account };
      });
      await emitAlert(ctx.deps, 'order.created', result.order.id);
      return {
        ...toOrderCreated(result.order),
        ...(result.account ? { account: await issueSession(ctx.deps.config, result.account) } : {}),
      };
    }),

  create: customerProcedure
    .input(ZOrderInput)
    .output(ZOrderCreated)
    .mutation(async ({ ctx, input }) => {
      const quote = await quoteFor(ctx, input);
      const [order] = await ctx.db
        .insert(orders)
        .values({
          createdAt: ctx.now(),
          updatedAt: ctx.now(),
          customerId: ctx.user.id,
          name: ctx.user.name,
          phone: ctx.user.phone ?? '',
          email: ctx.user.email,
          site: input.site,
          sandType: input.sandType,
          trucks: input.trucks,
          perTruckCents: quote.perTruck * 100,
          totalCents: quote.total * 100,
          distanceKm: quote.distanceKm,
          distanceSource: quote.distanceSource,
          dateNeeded: input.dateNeeded ?? null,
        })
        .returning();
      await emitAlert(ctx.deps, 'order.created', order!.id);
      return toOrderCreated(order!);
    }),

  /** The customer's payment confirmation; the same reference twice is one record. */
  confirmPayment: customerProcedure
    .input(ZPaymentConfirmationInput)
    .output(z.object({ status: ZOrderStatus, paymentStatus: ZPaymentStatus }))
    .mutation(async ({ ctx, input }) => {
      const method = canonicalPaymentMethod(input.method);
      if (!method) throw appError('BAD_REQUEST', ORDER_MESSAGES.methodInvalid);
      const outcome = await ctx.db.transaction(async (tx) => {
        const [order] = await tx.select().from(orders).where(eq(orders.id, input.id)).for('update').limit(1);
        if (!order) throw appError('NOT_FOUND', ORDER_MESSAGES.orderNotFound);
        if (order.customerId !== ctx.user.id) throw appError('FORBIDDEN', ORDER_MESSAGES.notYourOrder);
        const inserted = await tx
          .insert(payments)
          .values({
            orderId: order.id,
            method,
            reference: input.reference,
            message: input.message || null,
            submittedById: ctx.user.id,
          })
          .onConflictDoNothing()
          .returning({ id: payments.id });
        if (inserted.length === 0) return { order, isNew: false };
        if (order.status !== 'AWAITING_PAYMENT' && order.status !== 'PAYMENT_REVIEW') {
          throw appError('CONFLICT', ORDER_MESSAGES.paymentClosed);
        }
        const [updated] = await tx
          .update(orders)
          .set({ status: 'PAYMENT_REVIEW', paymentStatus: 'SUBMITTED', updatedAt: sql`now()` })
          .where(and(eq(orders.id, order.id)))
          .returning();
        return { order: updated!, isNew: true };
      });
      if (outcome.isNew) await emitAlert(ctx.deps, 'payment.submitted', outcome.order.id);
      return { status: outcome.order.status, paymentStatus: outcome.order.paymentStatus };
    }),

  my: customerProcedure
    .output(ZListedOrder.array())
    .query(({ ctx }) => listOrders(ctx.db, eq(orders.customerId, ctx.user.id))),
});
