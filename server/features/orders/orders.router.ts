import { customerOrders, placeCustomerOrder, placeGuestOrder } from '../../../core/orders/orders.service';
import { confirmPayment } from '../../../core/payments/payments.service';
import {
  ZGuestOrderInput,
  ZGuestOrderResult,
  ZListedOrder,
  ZOrderCreated,
  ZOrderInput,
  ZPaymentConfirmationInput,
  ZPaymentOutcome,
} from '../../../shared/schemas/orders';
import { idempotent } from '../../idempotency';
import { publicProcedure, roleProcedure, router } from '../../trpc';

const customerProcedure = roleProcedure('CUSTOMER');

export const ordersRouter = router({
  /** A guest's order, optionally creating their portal login (signed in at once). */
  createGuest: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/orders/guest',
        summary: 'Guest order, optionally creating a portal login',
        status: 201,
        errors: [409, 429],
        example: {
          name: 'Mary Njeri',
          phone: '0712345678',
          email: 'mary.njeri@example.co.ke',
          site: 'Juja, Gachororo',
          sandType: 'coarse',
          trucks: 2,
          dateNeeded: '2026-11-25',
          account: { password: 'a-long-passphrase', confirmPassword: 'a-long-passphrase' },
        },
      },
    })
    .input(ZGuestOrderInput)
    .output(ZGuestOrderResult)
    .mutation(({ ctx, input }) => placeGuestOrder(ctx.db, ctx.deps, input, { ip: ctx.ip, now: ctx.now() })),

  /** A second tap, or a resend after a lost answer, with the same Idempotency-Key answers the first order. */
  create: customerProcedure
    .meta({
      idempotent: true,
      rest: {
        method: 'POST',
        path: '/api/orders',
        summary: "A signed-in customer's order",
        status: 201,
        example: { site: 'Thika, Makongeni', sandType: 'smooth', trucks: 1, dateNeeded: '2026-11-26' },
      },
    })
    .input(ZOrderInput)
    .use(idempotent)
    .output(ZOrderCreated)
    .mutation(({ ctx, input }) =>
      placeCustomerOrder(ctx.db, ctx.deps, ctx.user, input, { ip: ctx.ip, now: ctx.now() }),
    ),

  /** The customer's payment confirmation; the same reference twice is one record. */
  confirmPayment: customerProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/orders/:id/payment',
        summary: 'Submit a payment confirmation (bank or M-Pesa reference)',
        errors: [404, 409],
        example: {
          id: '42',
          method: 'Equity',
          reference: 'QK7H2LMN3P',
          message: 'Paid from the site account',
        },
      },
    })
    .input(ZPaymentConfirmationInput)
    .output(ZPaymentOutcome)
    .mutation(({ ctx, input }) => confirmPayment(ctx.db, ctx.user, input, ctx.now())),

  my: customerProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/orders/my',
        summary: "The signed-in customer's orders with assignments",
      },
    })
    .output(ZListedOrder.array())
    .query(({ ctx }) => customerOrders(ctx.db, ctx.user)),
});
