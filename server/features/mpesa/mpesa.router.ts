import {
  type MpesaDeps,
  matchPayment,
  mpesaOptions,
  pushStk,
  stkStatus,
  unmatchedPayments,
} from '../../../core/mpesa/mpesa.service';
import { unreconciled } from '../../../core/mpesa/reconcile';
import {
  ZMatchedPayment,
  ZMatchPaymentInput,
  ZMpesaOptions,
  ZStkPushAccepted,
  ZStkPushInput,
  ZStkStatus,
  ZStkStatusInput,
  ZUnmatchedPage,
  ZUnmatchedPageInput,
  ZUnreconciled,
} from '../../../shared/schemas/mpesa';
import type { AppDeps } from '../../context';
import { publicProcedure, roleProcedure, router } from '../../trpc';

const mpesaDeps = (deps: AppDeps): MpesaDeps => ({
  settings: deps.settings,
  log: deps.log,
  limiters: deps.limiters,
});

/** Paying by M-Pesa: what the screens may offer, the phone prompt (STK push) and following it. */
export const mpesaRouter = router({
  options: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/payments/mpesa',
        summary:
          'The M-Pesa paybill to quote order account numbers with, and whether the phone prompt is offered',
      },
    })
    .output(ZMpesaOptions)
    .query(({ ctx }) => mpesaOptions(ctx.deps.settings)),

  /**
   * The order's signed-in customer, or whoever holds the guest order's paymentToken (in the body), asks for
   * the prompt; 202 once Daraja has it. The result comes by callback: follow it with stkStatus.
   */
  stkPush: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/orders/:id/mpesa/stk',
        summary:
          "Send the M-Pesa payment prompt (STK push) for the order's balance to a phone (at most KES 250,000 a prompt). The order's customer, or a guest with the order's paymentToken (body, 24 h)",
        status: 202,
        errors: [404, 409, 429],
        example: { id: '42', phone: '0712345678', paymentToken: 'eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl' },
      },
    })
    .input(ZStkPushInput)
    .output(ZStkPushAccepted)
    .mutation(({ ctx, input }) => pushStk(ctx.db, mpesaDeps(ctx.deps), ctx.user, input, ctx.now())),

  stkStatus: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/orders/:id/mpesa/stk/:checkoutRequestId',
        summary:
          "Where a payment prompt stands (PENDING, PAID or FAILED with the result code's message) and the order's money; paymentToken in the query for a guest",
        errors: [404],
        example: { id: '42', checkoutRequestId: 'ws_CO_23112026093000123456789' },
      },
    })
    .input(ZStkStatusInput)
    .output(ZStkStatus)
    .query(({ ctx, input }) => stkStatus(ctx.db, mpesaDeps(ctx.deps), ctx.user, input, ctx.now())),
});

const opsProcedure = roleProcedure('ADMIN', 'OPS');

/** Ops' side of M-Pesa: payments to unknown account numbers, matching them, and what is unreconciled. */
export const paymentsAdminRouter = router({
  unmatched: opsProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/payments/unmatched',
        summary:
          'M-Pesa payments whose account number is no order’s, newest first, a page at a time: limit (1-200, default 100) and cursor (the previous page’s nextCursor; null on the last page)',
        example: { limit: '100' },
      },
    })
    .input(ZUnmatchedPageInput)
    .output(ZUnmatchedPage)
    .query(({ ctx, input }) => unmatchedPayments(ctx.db, input)),

  match: opsProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/payments/:id/match',
        summary:
          'Match an unmatched M-Pesa payment to an order (who and when are kept); it settles the order like a callback',
        errors: [404, 409],
        example: { id: '7', orderId: 42 },
      },
    })
    .input(ZMatchPaymentInput)
    .output(ZMatchedPayment)
    .mutation(({ ctx, input }) => matchPayment(ctx.db, ctx.user, input, ctx.now())),

  unreconciled: opsProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/payments/unreconciled',
        summary:
          'Everything M-Pesa still open: unmatched payments, prompts without a result after 10 minutes, callbacks not processed, credits',
      },
    })
    .output(ZUnreconciled)
    .query(({ ctx }) => unreconciled(ctx.db, ctx.now())),
});
