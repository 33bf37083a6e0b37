import { z } from 'zod';
import { ETIMS_LINK_STATUSES, INVOICE_KINDS, INVOICE_STATUSES, INVOICE_STOCK_STATUSES } from '../enums';
import { CREDIT_NOTE_REASONS, KRA_PIN } from '../etims/codes';
import { blankToUndefined, zIntId, zKes, zText } from './common';

export type { EtimsLinkStatus, InvoiceStatus } from '../enums';
export { ETIMS_LINK_STATUSES, INVOICE_KINDS, INVOICE_STATUSES, INVOICE_STOCK_STATUSES } from '../enums';

export const INVOICE_MESSAGES = {
  orderNotFound: 'Order not found.',
  invoiceNotFound: 'Invoice not found.',
  notPaid: 'This order has no receipt yet: it is issued once the order is paid in full.',
  nothingLeft: 'This sale is fully credited already.',
  tooMuch: (kes: string) => `A credit note cannot be more than what is left of the sale (${kes}).`,
  reasonRequired: 'Choose the reason for the credit note.',
  pin: 'Enter the KRA PIN as on the PIN certificate: A or P, 9 digits, a letter (P051234567X).',
  amount: 'Enter an amount greater than zero.',
  creditFailed: 'Could not issue the credit note.',
} as const;

export const ZInvoiceStatus = z.enum(INVOICE_STATUSES);
export const ZEtimsLinkStatus = z.enum(ETIMS_LINK_STATUSES);
export const ZCreditNoteReason = z.enum(CREDIT_NOTE_REASONS, { error: INVOICE_MESSAGES.reasonRequired });

/** A customer's KRA PIN (optional everywhere), upper-cased; blank means none. */
export const ZKraPin = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
  z.preprocess(blankToUndefined, z.string().regex(KRA_PIN, INVOICE_MESSAGES.pin).optional()),
);

export const ZCreditNoteInput = z.object({
  id: zIntId(INVOICE_MESSAGES.orderNotFound),
  /** KES to credit; the whole sale (what is left of it) when absent. */
  amount: z.preprocess(blankToUndefined, zKes(INVOICE_MESSAGES.amount).optional()),
  /** KRA's credit note reason: 01 missing quantity, 02 missing data, 03 damaged, 04 wasted, 05 raw material shortage, 06 refund. */
  reason: ZCreditNoteReason,
  note: z.preprocess(blankToUndefined, zText({ label: 'Note', max: 300 }).optional()),
});
export type TCreditNoteInput = z.infer<typeof ZCreditNoteInput>;

export const ZInvoiceListInput = z
  .object({
    status: z.preprocess(blankToUndefined, ZInvoiceStatus.optional()),
  })
  .optional();

export const ZInvoiceIdInput = z.object({ id: zIntId(INVOICE_MESSAGES.invoiceNotFound) });

export const ZListedInvoice = z.object({
  id: z.number(),
  /** The gap-free number per branch: KRA's `invcNo`. */
  number: z.number(),
  /** INV-12 for a sale, CN-13 for a credit note. */
  label: z.string(),
  kind: z.enum(INVOICE_KINDS),
  status: ZInvoiceStatus,
  orderId: z.number().nullable(),
  customer: z.string(),
  customerPin: z.string().nullable(),
  /** KES, tax included. */
  total: z.number(),
  tax: z.number(),
  tonnes: z.number(),
  issuedAt: z.string(),
  /** The sale a credit note reverses (its label). */
  original: z.string().nullable(),
  /** KRA's result code and message of the last answer (the reason of a refusal). */
  kraCode: z.string().nullable(),
  kraMessage: z.string().nullable(),
  attempts: z.number(),
  lastAttemptAt: z.string().nullable(),
  signedAt: z.string().nullable(),
  receiptNo: z.string().nullable(),
  stock: z.enum(INVOICE_STOCK_STATUSES),
  stockMessage: z.string().nullable(),
  /** The PDF (receipt, or credit note), for staff. */
  documentUrl: z.string().nullable(),
});
export type TListedInvoice = z.infer<typeof ZListedInvoice>;

/** The eTIMS link as screens show it: off, or how it stands, with the branch KRA knows. */
export const ZEtimsState = z.object({
  status: ZEtimsLinkStatus,
  message: z.string().nullable(),
  since: z.string().nullable(),
  /** When the next attempt is due while KRA is away. */
  retryAt: z.string().nullable(),
  tin: z.string().nullable(),
  bhfId: z.string().nullable(),
  /** What KRA answered at initialisation (its branch id and name, the SCU id). */
  kraBranch: z.string().nullable(),
  sdcId: z.string().nullable(),
  vatRegistered: z.boolean(),
  /** Invoices of the active branch by status. */
  counts: z.object({
    off: z.number(),
    pending: z.number(),
    sent: z.number(),
    signed: z.number(),
    failed: z.number(),
  }),
});
export type TEtimsState = z.infer<typeof ZEtimsState>;

export const ZInvoiceList = z.object({ etims: ZEtimsState, invoices: z.array(ZListedInvoice) });
export type TInvoiceList = z.infer<typeof ZInvoiceList>;

export const ZSendAgainResult = z.object({ id: z.number(), status: ZInvoiceStatus, queued: z.boolean() });

export const ZCreditNoteResult = z.object({
  id: z.number(),
  label: z.string(),
  amount: z.number(),
  status: ZInvoiceStatus,
  documentUrl: z.string(),
});
export type TCreditNoteResult = z.infer<typeof ZCreditNoteResult>;

/** A credit note as an order listing carries it. */
export const ZOrderCreditNote = z.object({
  label: z.string(),
  amount: z.number(),
  etimsStatus: ZInvoiceStatus,
  url: z.string(),
});
export type TOrderCreditNote = z.infer<typeof ZOrderCreditNote>;

/**
 * An order's documents as every listing carries them: its receipt (the PDF, once the order is paid in
 * full), where its sale stands with KRA eTIMS, and its credit notes. The links carry the order's tracking
 * token, so they open as plain links (a download) for the customer and staff alike.
 */
export const orderDocumentFields = {
  receiptUrl: z.string().nullable(),
  /** off, pending, sent, signed or failed; null until the order is paid (no invoice yet). */
  etimsStatus: ZInvoiceStatus.nullable(),
  creditNotes: z.array(ZOrderCreditNote),
};

export const receiptPath = (orderId: number, trackingToken: string) =>
  `/api/orders/${orderId}/receipt?token=${trackingToken}`;
export const creditNotePath = (orderId: number, number: number, trackingToken: string) =>
  `/api/orders/${orderId}/credit-notes/${number}?token=${trackingToken}`;
