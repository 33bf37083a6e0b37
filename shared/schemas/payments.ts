import { z } from 'zod';
import { PAYMENT_SOURCES, PAYMENT_STATUSES } from '../enums';

/** A payment as an order lists it (KES). */
export const ZListedPayment = z.object({
  id: z.number(),
  /** `MPESA`, or the bank's name. */
  method: z.string(),
  /** The receipt or reference. */
  reference: z.string(),
  /** Reported by M-Pesa itself (not typed by a person). */
  verified: z.boolean(),
  source: z.enum(PAYMENT_SOURCES),
  status: z.enum(PAYMENT_STATUSES),
  amount: z.number().nullable(),
  paidAt: z.string().nullable(),
  payerName: z.string().nullable(),
  /** Masked (`2547 ***** 126`). */
  payerPhone: z.string().nullable(),
  credit: z.number(),
  createdAt: z.string(),
});
export type TListedPayment = z.infer<typeof ZListedPayment>;

/** What the payment calls answer when a rule refuses (English; the client's catalogs translate them). */
export const PAYMENT_MESSAGES = {
  /** The customer typed an M-Pesa receipt that already paid another order. */
  receiptUsed:
    'This M-Pesa receipt is already recorded for another payment. Check the reference, or call dispatch.',
  /** Ops would confirm a receipt that already settled another payment. */
  receiptSettled: (accountRef: string) =>
    `This M-Pesa receipt already paid order ${accountRef}. Check the reference before confirming.`,
  /** Ops would confirm a receipt that waits in the unmatched M-Pesa payments. */
  receiptUnmatched:
    'This M-Pesa receipt is in the unmatched M-Pesa payments: match it to this order there instead.',
  /** An order on account terms: its money goes to the account, so ops record it there with the amount. */
  onTermsNeedsAmount:
    "This order is on account terms: record the payment on the customer's account with the amount received.",
  tooManyConfirmations: (minutes: number) =>
    `Too many payment confirmations for this order. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again, or call dispatch.`,
} as const;
