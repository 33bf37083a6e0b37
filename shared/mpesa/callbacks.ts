import { z } from 'zod';
import { amountToCents, maskMsisdn, parseDarajaTime, payerName } from '../domain/mpesa';

// What Daraja posts to the callback URLs, read into what Mchanga keeps. Pure: the raw body in, plain data
// out (null when the body is not the documented shape). The raw body itself is stored as it came.

/** An M-Pesa receipt (TransID / MpesaReceiptNumber): upper-case letters and digits. */
export function cleanReceipt(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value).trim().toUpperCase();
  return /^[A-Z0-9]{6,20}$/.test(text) ? text : null;
}

const scalar = z.union([z.string(), z.number()]);

const ZStkCallback = z.object({
  Body: z.object({
    stkCallback: z.object({
      MerchantRequestID: scalar.optional(),
      CheckoutRequestID: z.string().min(1).max(100),
      ResultCode: scalar,
      ResultDesc: z.string().optional(),
      CallbackMetadata: z
        .object({
          Item: z.array(z.object({ Name: z.string(), Value: z.unknown().optional() })),
        })
        .optional(),
    }),
  }),
});

/** The result of a payment prompt, from its callback or from a status query. */
export interface StkResult {
  checkoutRequestId: string;
  merchantRequestId: string | null;
  resultCode: string;
  resultDesc: string;
  /** Present on a successful callback; a status query names no receipt. */
  receipt: string | null;
  amountCents: number | null;
  paidAt: Date | null;
  payerPhone: string | null;
}

export function parseStkCallback(body: unknown): StkResult | null {
  const parsed = ZStkCallback.safeParse(body);
  if (!parsed.success) return null;
  const cb = parsed.data.Body.stkCallback;
  const items = new Map((cb.CallbackMetadata?.Item ?? []).map((i) => [i.Name, i.Value]));
  const value = (name: string) => {
    const v = items.get(name);
    return typeof v === 'string' || typeof v === 'number' ? v : null;
  };
  return {
    checkoutRequestId: cb.CheckoutRequestID,
    merchantRequestId: cb.MerchantRequestID === undefined ? null : String(cb.MerchantRequestID),
    resultCode: String(cb.ResultCode).trim(),
    resultDesc: (cb.ResultDesc ?? '').slice(0, 500),
    receipt: cleanReceipt(value('MpesaReceiptNumber')),
    amountCents: amountToCents(value('Amount')),
    paidAt: parseDarajaTime(value('TransactionDate')),
    payerPhone: maskMsisdn(value('PhoneNumber')),
  };
}

const ZStkQueryAnswer = z.object({
  CheckoutRequestID: z.string().min(1).max(100),
  MerchantRequestID: scalar.optional(),
  ResultCode: scalar,
  ResultDesc: z.string().optional(),
});

/** Daraja's answer to an M-Pesa Express query (stored as an STK_QUERY callback). */
export function parseStkQueryAnswer(body: unknown): StkResult | null {
  const parsed = ZStkQueryAnswer.safeParse(body);
  if (!parsed.success) return null;
  const a = parsed.data;
  return {
    checkoutRequestId: a.CheckoutRequestID,
    merchantRequestId: a.MerchantRequestID === undefined ? null : String(a.MerchantRequestID),
    resultCode: String(a.ResultCode).trim(),
    resultDesc: (a.ResultDesc ?? '').slice(0, 500),
    receipt: null,
    amountCents: null,
    paidAt: null,
    payerPhone: null,
  };
}

const ZC2b = z.object({
  TransactionType: z.string().optional(),
  TransID: scalar,
  TransTime: scalar.optional(),
  TransAmount: scalar,
  BusinessShortCode: scalar.optional(),
  BillRefNumber: z.string().nullable().optional(),
  MSISDN: scalar.nullable().optional(),
  FirstName: z.string().nullable().optional(),
  MiddleName: z.string().nullable().optional(),
  LastName: z.string().nullable().optional(),
});

/** A paybill payment (C2B validation or confirmation). */
export interface C2bPayment {
  receipt: string;
  amountCents: number;
  paidAt: Date | null;
  /** The account number as typed (trimmed, at most 40 characters). */
  accountRef: string | null;
  shortcode: string | null;
  payerName: string | null;
  payerPhone: string | null;
}

export function parseC2b(body: unknown): C2bPayment | null {
  const parsed = ZC2b.safeParse(body);
  if (!parsed.success) return null;
  const c = parsed.data;
  const receipt = cleanReceipt(c.TransID);
  const amountCents = amountToCents(c.TransAmount);
  if (!receipt || !amountCents) return null;
  const account = (c.BillRefNumber ?? '')
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim()
    .slice(0, 40);
  return {
    receipt,
    amountCents,
    paidAt: parseDarajaTime(c.TransTime),
    accountRef: account || null,
    shortcode: c.BusinessShortCode === undefined ? null : String(c.BusinessShortCode),
    payerName: payerName([c.FirstName, c.MiddleName, c.LastName]),
    payerPhone: maskMsisdn(c.MSISDN),
  };
}

/** The body as JSON, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
