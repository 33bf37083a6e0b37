import { z } from 'zod';
import { MPESA_MESSAGES, normaliseMsisdn } from '../domain/mpesa';
import { MPESA_CALLBACK_KINDS, STK_REQUEST_STATUSES } from '../enums';
import { blankToUndefined, zIntId, zListLimit, zTextId } from './common';
import { ZOrderStatus, ZPaymentStatus } from './orders';

// The messages live with the zod-free domain code, so screens can show them without loading zod.
export { MPESA_MESSAGES };

/**
 * Who may ask for a prompt on a guest order: whoever holds the `paymentToken` returned with it (24 h). A
 * signed-in customer's own orders need none.
 */
const ZPaymentToken = z
  .string()
  .max(2000)
  .optional()
  .describe(
    'For a guest order: the paymentToken returned when it was placed (valid 24 h). Not needed for the signed-in customer who owns the order.',
  );

export const ZMsisdn = z
  .string({ error: MPESA_MESSAGES.phoneInvalid })
  .max(40, MPESA_MESSAGES.phoneInvalid)
  .transform((v, ctx) => {
    const msisdn = normaliseMsisdn(v);
    if (msisdn) return msisdn;
    ctx.addIssue({ code: 'custom', message: MPESA_MESSAGES.phoneInvalid });
    return z.NEVER;
  })
  .describe('07XXXXXXXX, 01XXXXXXXX or 2547…/2541…; read as 2547XXXXXXXX / 2541XXXXXXXX');

export const ZStkPushInput = z.object({
  id: zIntId(MPESA_MESSAGES.orderNotFound),
  phone: ZMsisdn,
  paymentToken: ZPaymentToken,
});
export type TStkPushInput = z.infer<typeof ZStkPushInput>;

export const ZStkStatusValue = z.enum(STK_REQUEST_STATUSES);

/** Where an order's money stands (KES). */
export const ZOrderMoney = z.object({
  status: ZOrderStatus,
  paymentStatus: ZPaymentStatus,
  accountRef: z.string(),
  total: z.number(),
  paid: z.number(),
  balance: z.number(),
  credit: z.number(),
});
export type TOrderMoney = z.infer<typeof ZOrderMoney>;

export const ZStkPushAccepted = z.object({
  checkoutRequestId: z.string(),
  /** This prompt's amount (KES, whole shillings). */
  amount: z.number(),
  /** This prompt's place among the prompts the balance needs (each at most KES 250,000). */
  part: z.number(),
  parts: z.number(),
  message: z.string(),
});
export type TStkPushAccepted = z.infer<typeof ZStkPushAccepted>;

export const ZStkStatusInput = z.object({
  id: zIntId(MPESA_MESSAGES.orderNotFound),
  checkoutRequestId: zTextId(MPESA_MESSAGES.promptNotFound, 100),
  paymentToken: ZPaymentToken,
});
export type TStkStatusInput = z.infer<typeof ZStkStatusInput>;

export const ZStkStatus = z.object({
  checkoutRequestId: z.string(),
  status: ZStkStatusValue,
  resultCode: z.string().nullable(),
  /** What to tell the customer: waiting for the PIN, paid, or what went wrong and what to do. */
  message: z.string(),
  /** Whether sending another prompt can help. */
  retry: z.boolean(),
  amount: z.number(),
  receipt: z.string().nullable(),
  order: ZOrderMoney,
  /** The order's receipt (tax invoice) PDF once it is paid in full; null before. */
  receiptUrl: z.string().nullable(),
});
export type TStkStatus = z.infer<typeof ZStkStatus>;

export const ZMpesaOptions = z.object({
  /** The business paybill customers pay to with the order's account number; null when not set up. */
  paybill: z.string().nullable(),
  /** The phone prompt (STK push) can be offered. */
  stk: z.boolean(),
});
export type TMpesaOptions = z.infer<typeof ZMpesaOptions>;

export const ZUnmatchedPayment = z.object({
  id: z.number(),
  receipt: z.string(),
  amount: z.number(),
  paidAt: z.string().nullable(),
  /** The account number as the payer typed it. */
  accountRef: z.string().nullable(),
  payerName: z.string().nullable(),
  payerPhone: z.string().nullable(),
  receivedAt: z.string(),
});
export type TUnmatchedPayment = z.infer<typeof ZUnmatchedPayment>;

const CURSOR_MESSAGE = 'Use the nextCursor of the previous page.';

/** A page of the unmatched list: `limit` rows (at most 200), after `cursor` (the previous page's nextCursor). */
export const ZUnmatchedPageInput = z
  .object({
    limit: z.preprocess(blankToUndefined, zListLimit(200).optional()),
    cursor: z.preprocess(
      blankToUndefined,
      zIntId(CURSOR_MESSAGE)
        .optional()
        .describe("The previous page's nextCursor; absent for the first (newest) page"),
    ),
  })
  .optional();
export type TUnmatchedPageInput = z.infer<typeof ZUnmatchedPageInput>;

export const ZUnmatchedPage = z.object({
  payments: z.array(ZUnmatchedPayment),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type TUnmatchedPage = z.infer<typeof ZUnmatchedPage>;

export const ZMatchPaymentInput = z.object({
  id: zIntId(MPESA_MESSAGES.paymentNotFound),
  orderId: zIntId(MPESA_MESSAGES.matchOrderNotFound),
});
export type TMatchPaymentInput = z.infer<typeof ZMatchPaymentInput>;

export const ZMatchedPayment = z.object({
  id: z.number(),
  orderId: z.number(),
  accountRef: z.string(),
  amount: z.number(),
  matchedBy: z.object({ id: z.number(), name: z.string() }),
  matchedAt: z.string(),
});
export type TMatchedPayment = z.infer<typeof ZMatchedPayment>;

/** What ops still have to look at (the Orders tab's M-Pesa view). */
export const ZUnreconciled = z.object({
  checkedAt: z.string(),
  unmatched: z.array(ZUnmatchedPayment),
  /** Prompts with no result 10 minutes after they were sent (the job has asked Daraja, or will). */
  prompts: z.array(
    z.object({
      id: z.number(),
      orderId: z.number(),
      accountRef: z.string(),
      amount: z.number(),
      phone: z.string(),
      sentAt: z.string(),
      queriedAt: z.string().nullable(),
      queryCount: z.number(),
      lastAnswer: z.string().nullable(),
    }),
  ),
  /** Callbacks stored but not processed (their job failed or has not run). */
  callbacks: z.array(
    z.object({
      id: z.number(),
      kind: z.enum(MPESA_CALLBACK_KINDS),
      receivedAt: z.string(),
      error: z.string().nullable(),
    }),
  ),
  /** Orders paid more than they owe: refund or carry over. */
  credits: z.array(
    z.object({ orderId: z.number(), accountRef: z.string(), name: z.string(), credit: z.number() }),
  ),
});
export type TUnreconciled = z.infer<typeof ZUnreconciled>;
