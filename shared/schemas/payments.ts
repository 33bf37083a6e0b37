import { z } from 'zod';

/** A payment as an order lists it (KES). */
export const ZListedPayment = z.object({
  id: z.number(),
  /** `MPESA`, or the bank's name. */
  method: z.string(),
  /** The receipt or reference. */
  reference: z.string(),
  /** Reported by M-Pesa itself (not typed by a person). */
  verified: z.boolean(),
  source: z.enum(['CUSTOMER', 'OPS', 'MPESA_C2B', 'MPESA_STK']),
  status: z.enum(['SUBMITTED', 'CONFIRMED', 'REJECTED']),
  amount: z.number().nullable(),
  paidAt: z.string().nullable(),
  payerName: z.string().nullable(),
  /** Masked (`2547 ***** 126`). */
  payerPhone: z.string().nullable(),
  credit: z.number(),
  createdAt: z.string(),
});
export type TListedPayment = z.infer<typeof ZListedPayment>;
