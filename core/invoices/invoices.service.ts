import type { DbOrTx } from '../../drizzle/db';
import { writeOutbox } from '../../drizzle/outbox';
import { formatMoney } from '../../shared/domain/format';
import { creditLines, type InvoiceLine, orderLines, totalsOf } from '../../shared/domain/invoices';
import { fromCents, toCents } from '../../shared/domain/money';
import { PAYMENT_TYPE, type PaymentTypeCode, TAX_RATES, taxTypeFor } from '../../shared/etims/codes';
import { traderInvoiceNo } from '../../shared/etims/payloads';
import { listedMethod } from '../../shared/payments';
import {
  creditNotePath,
  type EtimsLinkStatus,
  INVOICE_MESSAGES,
  INVOICE_STATUSES,
  type InvoiceStatus,
  receiptPath,
  type TCreditNoteInput,
  type TCreditNoteResult,
  type TEtimsState,
  type TInvoiceList,
  type TListedInvoice,
} from '../../shared/schemas/invoices';
import type { CtxUser } from '../access/actor';
import { nothingChanged, recordChange } from '../activity/activity';
import { appError } from '../errors';
import * as b from '../etims/branch.queries';
import { lockOrder } from '../orders/orders.queries';
import * as q from './invoices.queries';

export type { InvoiceRow } from './invoices.queries';

/** Who the invoice is to: the buyer as the order names them (and their KRA PIN when given). */
export interface InvoiceCustomer {
  id: number | null;
  name: string;
  pin: string | null;
  phone: string | null;
}

/**
 * What is being invoiced: a cash order paid in full, or (issue 24) one delivered load of an account on
 * terms. A load's invoice names its order too, so receipts and listings find it.
 */
export type InvoiceSource =
  | { kind: 'order'; orderId: number }
  | { kind: 'load'; orderId: number; assignmentId: number };

export interface IssueInvoiceInput {
  customer: InvoiceCustomer;
  lines: InvoiceLine[];
  source: InvoiceSource;
  paymentType: PaymentTypeCode | string;
  issuedAt: Date;
  createdById?: number | null;
  /** A credit note: the sale it reverses, KRA's reason, the tonnes that come back to the yard. */
  credit?: { original: q.InvoiceRow; reasonCode: string; note: string | null; returnTonnes: number };
}

/**
 * Issues a sale (or a credit note) inside the caller's transaction: the next gap-free number of the active
 * branch (taken under its row lock, given back if the transaction rolls back), the tax of its type, and —
 * when eTIMS is on — the send to KRA through the outbox, committed with it. Anyone may call it: the
 * payment settlement for a cash order, the delivery of a load for an account on terms (issue 24).
 */
export async function issueInvoice(tx: DbOrTx, input: IssueInvoiceInput): Promise<q.InvoiceRow> {
  let branch = await b.lockActiveBranch(tx);
  if (!branch) {
    await b.ensureLocalBranch(tx, input.issuedAt);
    branch = (await b.lockActiveBranch(tx))!;
  }
  const number = await b.takeInvoiceNumber(tx, branch.id);
  const taxType = taxTypeFor(branch.vatRegistered);
  const totals = totalsOf(input.lines, TAX_RATES[taxType]);
  const credit = input.credit;
  const row = await q.insertInvoice(tx, {
    branchId: branch.id,
    number,
    kind: credit ? 'R' : 'S',
    status: branch.enabled ? 'pending' : 'off',
    source: input.source.kind,
    orderId: input.source.orderId,
    assignmentId: input.source.kind === 'load' ? input.source.assignmentId : null,
    originalId: credit?.original.id ?? null,
    customerId: input.customer.id,
    customerName: input.customer.name,
    customerPin: input.customer.pin,
    customerPhone: input.customer.phone || null,
    paymentType: input.paymentType,
    reasonCode: credit?.reasonCode ?? null,
    note: credit?.note ?? null,
    lines: input.lines,
    taxType,
    totalCents: totals.totalCents,
    taxCents: totals.taxCents,
    tonnes: Math.round(input.lines.reduce((s, l) => s + l.tonnes, 0) * 100) / 100,
    stockTonnes: credit?.returnTonnes ?? 0,
    issuedAt: input.issuedAt,
    createdById: input.createdById ?? null,
    createdAt: input.issuedAt,
    updatedAt: input.issuedAt,
  });
  if (branch.enabled)
    await writeOutbox(tx, 'etims.send', {
      branchId: branch.id,
      invoiceId: row.id,
      at: input.issuedAt.toISOString(),
    });
  return row;
}

/** KRA's payment type of a paid order: mobile money when M-Pesa paid (any part of) it, else other (a bank). */
export function paymentTypeOf(methods: readonly string[]): PaymentTypeCode {
  return methods.some((m) => listedMethod(m) === 'MPESA') ? PAYMENT_TYPE.mobileMoney : PAYMENT_TYPE.other;
}

/**
 * The invoice-able event of a cash order: its payment is confirmed (typed and reviewed by ops, an STK
 * result or a paybill payment that clears it). Called in the transaction that confirms it, with the order
 * locked; a second call for the same order answers the sale already issued.
 */
export async function invoiceOrderPaid(
  tx: DbOrTx,
  orderId: number,
  now: Date,
): Promise<q.InvoiceRow | undefined> {
  const existing = await q.orderSale(tx, orderId);
  if (existing) return existing;
  const order = await lockOrder(tx, orderId);
  if (!order) return undefined;
  const paid = await q.confirmedPayments(tx, orderId);
  return issueInvoice(tx, {
    customer: { id: order.customerId, name: order.name, pin: order.customerPin, phone: order.phone },
    lines: orderLines(order),
    source: { kind: 'order', orderId },
    paymentType: paymentTypeOf(paid.map((p) => p.method)),
    issuedAt: now,
  });
}

/**
 * The lines a credit note against `sale` takes: what is left of it after its credit notes so far, `amount`
 * (KES) of that or all of it; refused as INVOICE_MESSAGES words it. Its earlier credit notes come back too.
 */
export async function creditNoteLines(
  tx: DbOrTx,
  sale: Pick<q.InvoiceRow, 'id' | 'totalCents' | 'lines'>,
  amount: number | undefined,
) {
  const credits = await q.creditNotesOf(tx, sale.id);
  const remaining = sale.totalCents - credits.reduce((s, c) => s + c.totalCents, 0);
  const wanted = amount === undefined ? undefined : toCents(amount);
  const made = creditLines(sale.lines as InvoiceLine[], remaining, wanted);
  if ('error' in made) {
    if (made.error === 'nothing-left') throw appError('CONFLICT', INVOICE_MESSAGES.nothingLeft);
    if (made.error === 'too-much')
      throw appError('BAD_REQUEST', INVOICE_MESSAGES.tooMuch(formatMoney(fromCents(remaining))));
    throw appError('BAD_REQUEST', INVOICE_MESSAGES.amount);
  }
  return { credits, made };
}

/**
 * A credit note against a paid order's sale (ADMIN): `amount` KES, or what is left of the sale when absent;
 * never more than that. Sand not yet delivered that it credits goes back into KRA's stock after it.
 */
export async function issueCreditNote(
  db: DbOrTx,
  admin: CtxUser,
  input: TCreditNoteInput,
  now: Date,
): Promise<TCreditNoteResult> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, input.id);
    if (!order) throw appError('NOT_FOUND', INVOICE_MESSAGES.orderNotFound);
    const sale = await q.orderSale(tx, order.id);
    if (!sale) throw appError('CONFLICT', INVOICE_MESSAGES.notPaid);
    const { credits, made } = await creditNoteLines(tx, sale, input.amount);
    const creditedTonnes = made.lines.reduce((s, l) => s + l.tonnes, 0);
    const undelivered =
      sale.tonnes - (await q.deliveredTonnes(tx, order.id)) - credits.reduce((s, c) => s + c.stockTonnes, 0);
    const note = await issueInvoice(tx, {
      customer: {
        id: sale.customerId,
        name: sale.customerName,
        pin: sale.customerPin,
        phone: sale.customerPhone,
      },
      lines: made.lines,
      source: { kind: 'order', orderId: order.id },
      paymentType: sale.paymentType,
      issuedAt: now,
      createdById: admin.id,
      credit: {
        original: sale,
        reasonCode: input.reason,
        note: input.note ?? null,
        returnTonnes: Math.max(0, Math.min(creditedTonnes, Math.round(undelivered * 100) / 100)),
      },
    });
    return creditNoteIssued(
      tx,
      note,
      { orderId: order.id, originalId: sale.id, reason: input.reason, note: input.note ?? null },
      creditNotePath(order.id, note.number, order.trackingToken),
    );
  });
}

/**
 * A credit note just issued (for an order, or for one load on a contractor's account): its line in the action
 * log and the answer the screens show, written once for both.
 */
export async function creditNoteIssued(
  tx: DbOrTx,
  note: q.InvoiceRow,
  about: ({ orderId: number } | { customerId: number | null }) & {
    originalId: number;
    reason: string;
    note: string | null;
  },
  documentUrl: string,
): Promise<TCreditNoteResult> {
  const { originalId, reason, note: why, ...scope } = about;
  const label = traderInvoiceNo('R', note.number);
  const amount = fromCents(note.totalCents);
  await recordChange(tx, {
    entity: 'invoice',
    entityId: note.id,
    after: { kind: 'R', number: label, ...scope, originalId, amount, reason, note: why },
  });
  return { id: note.id, label, amount, status: note.status, documentUrl };
}

/** The eTIMS link as the screens show it (off when no key and secret). */
export async function etimsState(db: DbOrTx): Promise<TEtimsState> {
  const branch = await b.activeBranch(db);
  const counts = Object.fromEntries(INVOICE_STATUSES.map((s) => [s, 0])) as Record<InvoiceStatus, number>;
  if (branch) for (const c of await q.countsByStatus(db, branch.id)) counts[c.status] = c.n;
  const on = Boolean(branch?.enabled);
  return {
    status: on ? (branch!.status as EtimsLinkStatus) : 'off',
    message: on ? (branch!.statusMessage ?? null) : null,
    since: branch?.statusAt?.toISOString() ?? null,
    retryAt: on ? (branch!.retryAt?.toISOString() ?? null) : null,
    tin: branch?.tin ?? null,
    bhfId: branch?.bhfId ?? null,
    kraBranch: branch?.kraBhfId
      ? `${branch.kraBhfId}${branch.kraBranchName ? ` ${branch.kraBranchName}` : ''}`
      : null,
    sdcId: branch?.sdcId ?? null,
    vatRegistered: branch?.vatRegistered ?? false,
    counts,
  };
}

/** The finance view: invoices by status, each with KRA's reason when it refused, and the link's state. */
export async function listInvoices(db: DbOrTx, status?: InvoiceStatus): Promise<TInvoiceList> {
  const rows = await q.listInvoices(db, status);
  const invoices: TListedInvoice[] = rows.map(({ invoice: i, originalNumber, trackingToken }) => ({
    id: i.id,
    number: i.number,
    label: traderInvoiceNo(i.kind, i.number),
    kind: i.kind,
    status: i.status,
    orderId: i.orderId,
    customer: i.customerName,
    customerPin: i.customerPin,
    total: fromCents(i.totalCents),
    tax: fromCents(i.taxCents),
    tonnes: i.tonnes,
    issuedAt: i.issuedAt.toISOString(),
    original: originalNumber === null ? null : traderInvoiceNo('S', originalNumber),
    kraCode: i.kraResultCode,
    kraMessage: i.kraResultMessage,
    attempts: i.attempts,
    lastAttemptAt: i.lastAttemptAt?.toISOString() ?? null,
    signedAt: i.signedAt?.toISOString() ?? null,
    receiptNo: i.receiptNo,
    stock: i.stockStatus,
    stockMessage: i.stockMessage,
    documentUrl:
      i.orderId && trackingToken
        ? i.kind === 'S'
          ? receiptPath(i.orderId, trackingToken)
          : creditNotePath(i.orderId, i.number, trackingToken)
        : null,
  }));
  return { etims: await etimsState(db), invoices };
}

/**
 * "Send again" (ADMIN): a refused invoice goes back in the queue; a waiting one is sent now, without
 * waiting for the back-off. Safe to press twice: the same invoice number goes to KRA, which holds one
 * invoice per number (a second is answered 994, read as accepted), and passes take turns per branch.
 */
export async function sendInvoiceAgain(db: DbOrTx, id: number, now: Date) {
  return db.transaction(async (tx) => {
    const invoice = await q.lockInvoice(tx, id);
    if (!invoice) throw appError('NOT_FOUND', INVOICE_MESSAGES.invoiceNotFound);
    if (invoice.status === 'off' || (invoice.status === 'signed' && invoice.stockStatus !== 'failed')) {
      nothingChanged();
      return { id, status: invoice.status, queued: false };
    }
    if (invoice.status === 'failed') await q.updateInvoice(tx, id, { status: 'pending', updatedAt: now });
    if (invoice.status === 'signed')
      await q.updateInvoice(tx, id, { stockStatus: 'pending', updatedAt: now });
    await b.updateBranch(tx, invoice.branchId, { retryAt: null, updatedAt: now });
    await writeOutbox(tx, 'etims.send', { branchId: invoice.branchId, invoiceId: id, at: now.toISOString() });
    await recordChange(tx, {
      entity: 'invoice',
      entityId: id,
      before: { status: invoice.status, stockStatus: invoice.stockStatus },
      after: {
        status: invoice.status === 'failed' ? 'pending' : invoice.status,
        stockStatus: invoice.status === 'signed' ? 'pending' : invoice.stockStatus,
      },
    });
    return { id, status: invoice.status === 'failed' ? ('pending' as const) : invoice.status, queued: true };
  });
}
