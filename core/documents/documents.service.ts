import type { DbOrTx } from '../../drizzle/db';
import type { InvoiceLine } from '../../shared/domain/invoices';
import { fromCents } from '../../shared/domain/money';
import { accountRefOf } from '../../shared/domain/mpesa';
import { verificationUrl } from '../../shared/etims/codes';
import { traderInvoiceNo } from '../../shared/etims/payloads';
import { listedMethod } from '../../shared/payments';
import { INVOICE_MESSAGES } from '../../shared/schemas/invoices';
import type { Settings } from '../../shared/settings';
import type { CtxUser } from '../access/actor';
import { mayReadOrderDocument } from '../access/rules';
import { appError } from '../errors';
import { branchById } from '../etims/branch.queries';
import { confirmedPayments, customerLanguage, invoiceById, orderSale } from '../invoices/invoices.queries';
import type { DocumentLanguage } from './document-text';
import { orderById, orderCreditNote, orderLoads } from './documents.queries';
import { type DocumentData, renderDocumentPdf } from './receipt-pdf';

export interface DocumentRequest {
  orderId: number;
  /** A credit note's number; the order's receipt (its sale) when absent. */
  creditNote?: number;
  user: CtxUser | null;
  /** The order's tracking token, for whoever holds its link. */
  token?: string;
  /** The language asked for; the customer's own otherwise (English for a guest). */
  lang?: DocumentLanguage;
}

/**
 * An order's receipt (tax invoice once eTIMS signed it) or one of its credit notes, as a PDF, to whoever
 * may read it (core/access/order-documents.ts); anyone else, and an order not yet paid, gets 404.
 */
export async function orderDocument(
  db: DbOrTx,
  settings: Pick<Settings, 'etims' | 'yard' | 'dispatch'>,
  req: DocumentRequest,
): Promise<{ pdf: Buffer; filename: string }> {
  const order = await orderById(db, req.orderId);
  if (!order || !mayReadOrderDocument(req.user, order, req.token))
    throw appError('NOT_FOUND', INVOICE_MESSAGES.orderNotFound);
  const invoice =
    req.creditNote === undefined
      ? await orderSale(db, order.id)
      : await orderCreditNote(db, order.id, req.creditNote);
  if (!invoice)
    throw appError(
      'NOT_FOUND',
      req.creditNote === undefined ? INVOICE_MESSAGES.notPaid : INVOICE_MESSAGES.invoiceNotFound,
    );
  const branch = await branchById(db, invoice.branchId);
  const original = invoice.originalId ? await invoiceById(db, invoice.originalId) : undefined;
  const lang = req.lang ?? (await customerLanguage(db, order.customerId)) ?? 'en';
  const label = traderInvoiceNo(invoice.kind, invoice.number);
  const signed = invoice.status === 'signed';
  const data: DocumentData = {
    lang,
    kind: invoice.kind,
    etims: invoice.status !== 'off',
    business: {
      name: branch?.taxpayerName ?? 'Mchanga',
      pin: branch?.tin ?? null,
      place: settings.yard.name,
      phone: settings.dispatch.phone,
      email: settings.dispatch.email,
    },
    invoice: {
      label,
      issuedAt: invoice.issuedAt,
      status: invoice.status,
      original: original ? traderInvoiceNo(original.kind, original.number) : null,
      reasonCode: invoice.reasonCode,
    },
    customer: { name: invoice.customerName, pin: invoice.customerPin, phone: invoice.customerPhone },
    order: { id: order.id, accountRef: accountRefOf(order.id), site: order.site },
    lines: (invoice.lines as InvoiceLine[]).map((l) => ({
      sandType: l.sandType,
      tonnes: l.tonnes,
      unitPrice: fromCents(l.unitPriceCents),
      amount: fromCents(l.amountCents),
    })),
    totals: {
      total: fromCents(invoice.totalCents),
      tax: fromCents(invoice.taxCents),
      taxType: invoice.taxType,
    },
    payments: (await confirmedPayments(db, order.id)).map((p) => ({
      method: listedMethod(p.method) === 'MPESA' ? 'M-Pesa' : p.method,
      reference: p.mpesaReceipt ?? p.reference,
      amount: p.amountCents === null ? null : fromCents(p.amountCents),
      at: p.paidAt ?? p.createdAt,
    })),
    loads: (await orderLoads(db, order.id)).map((l) => ({ ...l, tonnes: Number(l.tonnes) })),
    scu: signed
      ? {
          sdcDateTime: invoice.sdcDateTime,
          sdcId: invoice.sdcId,
          receiptNo: invoice.receiptNo,
          totalReceiptNo: invoice.totalReceiptNo,
          internalData: invoice.internalData,
          signature: invoice.receiptSignature,
          mrcNo: invoice.mrcNo,
          qrUrl:
            invoice.receiptSignature && branch?.tin && branch.bhfId
              ? verificationUrl(settings.etims.baseUrl, branch.tin, branch.bhfId, invoice.receiptSignature)
              : null,
        }
      : null,
  };
  return {
    pdf: await renderDocumentPdf(data),
    filename: `${invoice.kind === 'R' ? 'credit-note' : 'receipt'}-${label}-order-${order.id}.pdf`,
  };
}
