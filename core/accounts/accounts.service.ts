import type { DbOrTx } from '../../drizzle/db';
import {
  ageing,
  allocatePayment,
  creditCheck,
  customerAccountRef,
  dueDateOf,
  type LedgerEntry,
  type OpenReceivable,
  overdueOf,
  releaseForCredit,
  reversePayment,
  statementOf,
} from '../../shared/domain/accounts';
import { type InvoiceLine, loadLine } from '../../shared/domain/invoices';
import { fromCents, toCents } from '../../shared/domain/money';
import { addDays, localDate, startOfLocalDate } from '../../shared/domain/time';
import { PAYMENT_TYPE } from '../../shared/etims/codes';
import { traderInvoiceNo } from '../../shared/etims/payloads';
import { PAYMENT_BANKS } from '../../shared/payments';
import {
  ACCOUNT_MESSAGES,
  MAX_STATEMENT_DAYS,
  type TAccount,
  type TAccountCreditNoteInput,
  type TAccountInput,
  type TAccountPayment,
  type TAgeing,
  type TCustomerMatch,
  type TCustomerSearchInput,
  type TMyAccount,
  type TReceivables,
  type TReversePaymentInput,
  type TStatement,
} from '../../shared/schemas/accounts';
import { creditNotePath, type TCreditNoteResult } from '../../shared/schemas/invoices';
import type { Settings } from '../../shared/settings';
import type { CtxUser } from '../access/actor';
import { mayReadAccount } from '../access/rules';
import { recordChange } from '../activity/activity';
import { renderStatementPdf, statementCsv } from '../documents/statement-pdf';
import { appError } from '../errors';
import { activeBranch } from '../etims/branch.queries';
import * as iq from '../invoices/invoices.queries';
import { creditNoteIssued, creditNoteLines, issueInvoice } from '../invoices/invoices.service';
import { lockOrder, type OrderRow } from '../orders/orders.queries';
import * as pq from '../payments/payments.queries';
import * as q from './accounts.queries';

const kesAgeing = (a: ReturnType<typeof ageing>): TAgeing => ({
  current: fromCents(a.current),
  d1_30: fromCents(a.d1_30),
  d31_60: fromCents(a.d31_60),
  d61_90: fromCents(a.d61_90),
  d90_plus: fromCents(a.d90_plus),
});

const toOpen = (r: q.ReceivableRow): OpenReceivable => ({
  invoiceId: r.invoiceId,
  issuedAt: r.issuedAt.toISOString(),
  dueDate: r.dueDate,
  openCents: r.totalCents - r.creditedCents - r.allocatedCents,
});

/** The account's figures now: balance, what is overdue, scheduled on credit, what the limit leaves. */
async function figures(db: DbOrTx, account: q.AccountRow, now: Date) {
  const [balance, scheduled, open, lastPayment] = await Promise.all([
    q.balanceCents(db, account.customerId),
    q.scheduledCents(db, account.customerId),
    q.openReceivables(db, account.customerId),
    q.lastPaymentAt(db, account.customerId),
  ]);
  const aged = ageing(open.map(toOpen), localDate(now));
  const openCents = open.reduce((s, r) => s + toOpen(r).openCents, 0);
  return {
    balance,
    scheduled,
    aged,
    overdue: overdueOf(aged),
    creditCents: openCents - balance,
    available: creditCheck({
      limitCents: account.creditLimitCents,
      balanceCents: balance,
      scheduledCents: scheduled,
      loadCents: 0,
    }).availableCents,
    lastPayment,
  };
}

export async function requireCustomer(db: DbOrTx, id: number) {
  const user = await q.userById(db, id);
  if (!user) throw appError('NOT_FOUND', ACCOUNT_MESSAGES.customerNotFound);
  if (user.role !== 'CUSTOMER') throw appError('BAD_REQUEST', ACCOUNT_MESSAGES.notACustomer);
  return user;
}

/** ADMIN finds a customer to give terms to: by part of the name, e-mail or phone, at most 20. */
export async function findCustomers(db: DbOrTx, input: TCustomerSearchInput): Promise<TCustomerMatch[]> {
  const found = await q.searchCustomers(db, input.q, 20);
  return found.map((c) => ({ ...c, accountRef: customerAccountRef(c.id) }));
}

/** ADMIN reads an account back with its balance, what is overdue and what the limit leaves. */
export async function readAccount(db: DbOrTx, customerId: number, now: Date): Promise<TAccount> {
  const user = await requireCustomer(db, customerId);
  const account = await q.findAccount(db, customerId);
  if (!account) throw appError('NOT_FOUND', ACCOUNT_MESSAGES.noAccount);
  const f = await figures(db, account, now);
  return {
    customerId,
    name: user.name,
    email: user.email,
    phone: user.phone,
    creditLimit: fromCents(account.creditLimitCents),
    termsDays: account.termsDays,
    kraPin: account.kraPin,
    billingEmail: account.billingEmail,
    billingPhone: account.billingPhone,
    accountRef: customerAccountRef(customerId),
    balance: fromCents(f.balance),
    overdue: fromCents(f.overdue),
    available: fromCents(f.available),
    scheduled: fromCents(f.scheduled),
    credit: fromCents(f.creditCents),
    ageing: kesAgeing(f.aged),
    lastPaymentAt: f.lastPayment?.toISOString() ?? null,
    updatedAt: account.updatedAt.toISOString(),
  };
}

/** What the action log shows of a credit account. */
const accountView = (a: q.AccountRow) => ({
  creditLimit: fromCents(a.creditLimitCents),
  termsDays: a.termsDays,
  kraPin: a.kraPin,
  billingEmail: a.billingEmail,
  billingPhone: a.billingPhone,
});

/**
 * ADMIN gives a customer (registered, or one ops created) a credit limit and terms, a KRA PIN and a
 * billing contact; the same call changes them. A lower limit refuses only later loads; terms apply to
 * invoices issued from now on (an invoice keeps the due date it was issued with).
 */
export async function putAccount(db: DbOrTx, admin: CtxUser, input: TAccountInput, now: Date) {
  await requireCustomer(db, input.id);
  await db.transaction(async (tx) => {
    const before = await q.lockAccount(tx, input.id);
    await q.upsertAccount(tx, {
      customerId: input.id,
      creditLimitCents: toCents(input.creditLimit),
      termsDays: input.termsDays,
      kraPin: input.kraPin ?? null,
      billingEmail: input.billingEmail ?? null,
      billingPhone: input.billingPhone ?? null,
      updatedById: admin.id,
      createdAt: now,
      updatedAt: now,
    });
    await recordChange(tx, {
      entity: 'customerAccount',
      entityId: input.id,
      before: before ? accountView(before) : null,
      after: accountView((await q.findAccount(tx, input.id))!),
    });
  });
  return readAccount(db, input.id, now);
}

/** The signed-in customer's own account, for My Orders (null when they have none). */
export async function myAccount(db: DbOrTx, customer: CtxUser, now: Date): Promise<TMyAccount> {
  const account = await q.findAccount(db, customer.id);
  if (!account) return null;
  const f = await figures(db, account, now);
  return {
    accountRef: customerAccountRef(customer.id),
    balance: fromCents(f.balance),
    overdue: fromCents(f.overdue),
    creditLimit: fromCents(account.creditLimitCents),
    available: fromCents(f.available),
    termsDays: account.termsDays,
  };
}

// ---------------------------------------------------------------------------------------------------
// Scheduling on credit

/** What scheduling a load on credit decided: whether the order is on terms, and whether ADMIN overrode the limit. */
export interface CreditDecision {
  onTerms: boolean;
  overridden: boolean;
}

/**
 * A load of an unpaid order of a customer with an account: scheduled on the account's credit (no
 * confirmation of an unpaid order needed) when what is owed + what is scheduled and not yet invoiced +
 * this load stays within the limit; past it refused (409 naming the limit, the balance and what is
 * overdue) unless ADMIN overrides with a reason. Takes the account's lock (after the order's), so racing
 * assignments are counted one after the other. Undefined when the order is not for an account.
 */
export async function creditForLoad(
  tx: DbOrTx,
  order: Pick<OrderRow, 'customerId' | 'perTruckCents' | 'paymentStatus' | 'onTerms'>,
  tonnes: number,
  override: { overrideCreditLimit?: boolean | undefined; overrideReason?: string | undefined },
  now: Date,
): Promise<CreditDecision | undefined> {
  if (!order.customerId || (order.paymentStatus === 'CONFIRMED' && !order.onTerms)) return undefined;
  const account = await q.lockAccount(tx, order.customerId);
  if (!account) return undefined;
  const loadCents = Math.round((order.perTruckCents * tonnes) / 20);
  const f = await figures(tx, account, now);
  const check = creditCheck({
    limitCents: account.creditLimitCents,
    balanceCents: f.balance,
    scheduledCents: f.scheduled,
    loadCents,
  });
  if (check.fits) return { onTerms: true, overridden: false };
  if (!override.overrideCreditLimit)
    throw appError(
      'CONFLICT',
      ACCOUNT_MESSAGES.overLimit(
        fromCents(account.creditLimitCents),
        fromCents(f.balance),
        fromCents(f.overdue),
        fromCents(loadCents),
      ),
      {
        overCreditLimit: true,
        creditLimit: fromCents(account.creditLimitCents),
        balance: fromCents(f.balance),
        overdue: fromCents(f.overdue),
        available: fromCents(check.availableCents),
      },
    );
  if (!override.overrideReason) throw appError('BAD_REQUEST', ACCOUNT_MESSAGES.overrideReasonRequired);
  return { onTerms: true, overridden: true };
}

// ---------------------------------------------------------------------------------------------------
// Invoices, payments, credit notes, reversals: every one under the account's lock

/**
 * Money not yet on an invoice (payments' credit) pays the open invoices, oldest first. Run after
 * anything that opens an invoice or frees money: a new invoice, a credit note, a reversal.
 */
async function applyCredit(tx: DbOrTx, customerId: number, now: Date) {
  const credits = await q.paymentsWithCredit(tx, customerId);
  if (credits.length === 0) return;
  let open = (await q.openReceivables(tx, customerId)).map(toOpen);
  for (const c of credits) {
    if (open.every((r) => r.openCents === 0)) break;
    const result = allocatePayment(c.unallocatedCents, open);
    await writeAllocations(tx, c.id, result.allocations, now);
    await q.addToUnallocated(tx, c.id, result.creditCents - c.unallocatedCents, now);
    open = open.map((r) => ({
      ...r,
      openCents: r.openCents - (result.allocations.find((a) => a.invoiceId === r.invoiceId)?.cents ?? 0),
    }));
  }
}

async function writeAllocations(
  tx: DbOrTx,
  paymentId: number,
  allocations: { invoiceId: number; cents: number }[],
  now: Date,
) {
  await q.insertAllocations(
    tx,
    allocations.map((a) => ({ paymentId, invoiceId: a.invoiceId, cents: a.cents, at: now })),
  );
  for (const a of allocations) await q.addToReceivable(tx, a.invoiceId, { allocatedCents: a.cents }, now);
}

/**
 * A delivered load of an order on terms is a sale: one KRA eTIMS tax invoice per load (the supply event;
 * a cash order is invoiced when paid instead), due on its day plus the account's terms. Called in the
 * transaction that delivers it, with the order and load locked; a second call for the same load (a
 * re-run) finds the invoice and issues nothing.
 */
export async function invoiceDeliveredLoad(
  tx: DbOrTx,
  order: Pick<
    OrderRow,
    'id' | 'customerId' | 'name' | 'phone' | 'customerPin' | 'sandType' | 'perTruckCents'
  >,
  load: { id: number; tonnes: number },
  at: Date,
  now: Date,
) {
  if (!order.customerId) return undefined;
  const account = await q.lockAccount(tx, order.customerId);
  // Invoiced once: a load moved back and delivered again keeps its first invoice.
  if (!account || (await q.hasLoadSale(tx, load.id))) return undefined;
  const line: InvoiceLine = loadLine({
    sandType: order.sandType,
    tonnes: load.tonnes,
    perTruckCents: order.perTruckCents,
  });
  if (line.amountCents <= 0) return undefined;
  const invoice = await issueInvoice(tx, {
    customer: {
      id: order.customerId,
      name: order.name,
      pin: account.kraPin ?? order.customerPin,
      phone: order.phone,
    },
    lines: [line],
    source: { kind: 'load', orderId: order.id, assignmentId: load.id },
    paymentType: PAYMENT_TYPE.credit,
    issuedAt: at,
  });
  await q.insertReceivable(tx, {
    invoiceId: invoice.id,
    customerId: order.customerId,
    orderId: order.id,
    issuedAt: at,
    dueDate: dueDateOf(localDate(at), account.termsDays),
    totalCents: invoice.totalCents,
    createdAt: now,
    updatedAt: now,
  });
  await applyCredit(tx, order.customerId, now);
  return invoice;
}

/**
 * An account payment, confirmed: allocated to the invoice the payer named, then the oldest open ones;
 * what is left stays as a credit on the account. The caller holds the account's lock and the payment is
 * recorded with `accountCustomerId` (the one settlement, core/payments/settlement.ts, calls this).
 */
export async function allocateAccountPayment(
  tx: DbOrTx,
  customerId: number,
  payment: { id: number; amountCents: number; namedInvoiceId: number | null },
  now: Date,
) {
  const open = (await q.openReceivables(tx, customerId)).map(toOpen);
  const result = allocatePayment(payment.amountCents, open, payment.namedInvoiceId);
  await writeAllocations(tx, payment.id, result.allocations, now);
  await q.addToUnallocated(tx, payment.id, result.creditCents, now);
  return result;
}

/** The account of a customer, locked, or 404. */
export async function lockExistingAccount(tx: DbOrTx, customerId: number) {
  const account = await q.lockAccount(tx, customerId);
  if (!account) throw appError('NOT_FOUND', ACCOUNT_MESSAGES.noAccount);
  return account;
}

/** A payment as the account's history lists it. */
export async function describePayment(db: DbOrTx, paymentId: number): Promise<TAccountPayment> {
  const found = (await q.accountPayment(db, paymentId))!;
  const p = found.payment;
  return {
    id: p.id,
    customerId: p.accountCustomerId!,
    amount: fromCents(p.amountCents),
    reference: p.reference,
    paidAt: (p.paidAt ?? p.createdAt).toISOString(),
    allocations: found.parts.map((a) => ({
      invoiceId: a.invoiceId,
      invoice: traderInvoiceNo('S', a.number),
      amount: fromCents(a.cents),
    })),
    credit: p.reversedAt ? 0 : fromCents(p.unallocatedCents),
    reversedAt: p.reversedAt?.toISOString() ?? null,
  };
}

/**
 * A credit note against a load's invoice of an account (ADMIN): `amount` KES, or what is left of the sale
 * when absent, never more. It lowers what is owed on that invoice; past what is open, payments standing
 * on it go back to the account as credit (`creditAccountInvoice`). The sand was delivered: none goes back
 * into KRA's stock.
 */
export async function creditLoadInvoice(
  db: DbOrTx,
  admin: CtxUser,
  input: TAccountCreditNoteInput,
  now: Date,
): Promise<TCreditNoteResult> {
  return db.transaction(async (tx) => {
    const seen = await iq.invoiceById(tx, input.id);
    if (seen?.kind !== 'S' || seen.source !== 'load' || !seen.customerId)
      throw appError('NOT_FOUND', ACCOUNT_MESSAGES.invoiceNotFound);
    const order = seen.orderId ? await lockOrder(tx, seen.orderId) : undefined;
    await lockExistingAccount(tx, seen.customerId);
    const sale = (await iq.lockInvoice(tx, seen.id))!;
    const { made } = await creditNoteLines(tx, sale, input.amount);
    const note = await issueInvoice(tx, {
      customer: {
        id: sale.customerId,
        name: sale.customerName,
        pin: sale.customerPin,
        phone: sale.customerPhone,
      },
      lines: made.lines,
      source: { kind: 'load', orderId: sale.orderId!, assignmentId: sale.assignmentId! },
      paymentType: sale.paymentType,
      issuedAt: now,
      createdById: admin.id,
      credit: { original: sale, reasonCode: input.reason, note: input.note ?? null, returnTonnes: 0 },
    });
    await creditAccountInvoice(tx, sale.id, note.totalCents, now);
    return creditNoteIssued(
      tx,
      note,
      { customerId: sale.customerId, originalId: sale.id, reason: input.reason, note: input.note ?? null },
      order ? creditNotePath(order.id, note.number, order.trackingToken) : '',
    );
  });
}

/**
 * A payment reversed (ADMIN: a bounced bank transfer, an M-Pesa reversal): what it paid is open again and
 * the credit it left is gone; the statement shows it as a reversal line. Once.
 */
export async function reverseAccountPayment(
  db: DbOrTx,
  admin: CtxUser,
  input: TReversePaymentInput,
  now: Date,
): Promise<TAccountPayment> {
  await db.transaction(async (tx) => {
    const seen = await q.accountPayment(tx, input.id);
    const customerId = seen?.payment.accountCustomerId;
    if (!customerId) throw appError('NOT_FOUND', ACCOUNT_MESSAGES.paymentNotFound);
    await lockExistingAccount(tx, customerId);
    const payment = await q.lockAccountPayment(tx, input.id);
    if (payment?.status !== 'CONFIRMED') throw appError('NOT_FOUND', ACCOUNT_MESSAGES.paymentNotFound);
    if (payment.reversedAt) throw appError('CONFLICT', ACCOUNT_MESSAGES.reversedAlready);
    const standing = await q.standingOfPayment(tx, payment.id);
    for (const back of reversePayment(standing))
      await q.addToReceivable(tx, back.invoiceId, { allocatedCents: -back.cents }, now);
    for (const a of standing) await q.releaseAllocation(tx, a, a.cents, now);
    await pq.updatePayment(tx, payment.id, {
      reversedAt: now,
      reversedById: admin.id,
      reverseReason: input.reason,
      unallocatedCents: 0,
      updatedAt: now,
    });
    // Other money on the account may now pay what the reversal opened.
    await applyCredit(tx, customerId, now);
    await recordChange(tx, {
      entity: 'payment',
      entityId: payment.id,
      before: { reversed: false },
      after: { reversed: true, reason: input.reason, amount: fromCents(payment.amountCents ?? 0) },
    });
  });
  return describePayment(db, input.id);
}

/**
 * A credit note against an account invoice (issued by the caller with the account locked): it lowers what
 * is open; past that, the newest payments standing on the invoice are given back to the account as credit
 * and pay the next open invoices.
 */
export async function creditAccountInvoice(tx: DbOrTx, invoiceId: number, creditCents: number, now: Date) {
  const r = await q.lockReceivable(tx, invoiceId);
  if (!r) return;
  const open = r.totalCents - r.creditedCents - r.allocatedCents;
  const standing = await q.standingOnInvoice(tx, invoiceId);
  const released = releaseForCredit(
    open,
    creditCents,
    standing.map((a) => ({ id: a.id, paymentId: a.paymentId, cents: a.cents, at: a.at.toISOString() })),
  );
  for (const part of released) {
    await q.releaseAllocation(tx, standing.find((a) => a.id === part.allocationId)!, part.cents, now);
    await q.addToUnallocated(tx, part.paymentId, part.cents, now);
  }
  const releasedCents = released.reduce((s, p) => s + p.cents, 0);
  await q.addToReceivable(tx, invoiceId, { allocatedCents: -releasedCents, creditedCents: creditCents }, now);
  await applyCredit(tx, r.customerId, now);
}

// ---------------------------------------------------------------------------------------------------
// Statements and the receivables view

/** Everything that moved the account's balance before `until`, as ledger entries (cents). */
async function ledgerEntries(db: DbOrTx, customerId: number, until: Date) {
  const l = await q.ledger(db, customerId, until);
  const entries: (LedgerEntry & { orderId: number | null; dueDate: string | null })[] = [];
  for (const s of l.sales)
    entries.push({
      kind: 'invoice',
      at: s.at.toISOString(),
      date: localDate(s.at),
      reference: traderInvoiceNo('S', s.number),
      cents: s.cents,
      seq: s.id,
      orderId: s.orderId,
      dueDate: s.dueDate,
    });
  for (const c of l.credits)
    entries.push({
      kind: 'credit',
      at: c.at.toISOString(),
      date: localDate(c.at),
      reference: traderInvoiceNo('R', c.number),
      cents: c.cents,
      seq: c.id,
      orderId: c.orderId,
      dueDate: null,
    });
  for (const p of l.paid) {
    const at = new Date(p.at);
    entries.push({
      kind: 'payment',
      at: at.toISOString(),
      date: localDate(at),
      reference: p.reference,
      cents: p.cents ?? 0,
      seq: p.id,
      orderId: p.orderId,
      dueDate: null,
    });
    if (p.reversedAt && p.reversedAt < until)
      entries.push({
        kind: 'reversal',
        at: p.reversedAt.toISOString(),
        date: localDate(p.reversedAt),
        reference: p.reference,
        cents: p.cents ?? 0,
        seq: p.id,
        orderId: p.orderId,
        dueDate: null,
      });
  }
  return entries;
}

/**
 * The account's statement for [from, to] (Nairobi days): the balance before, each invoice, credit note,
 * payment and reversal with the balance after it, the closing balance (= opening + invoices − payments −
 * credit notes + reversals, to the cent) and the ageing of what is open at the end of the period.
 */
export async function statement(
  db: DbOrTx,
  customerId: number,
  from: string,
  to: string,
): Promise<TStatement> {
  if (to < from) throw appError('BAD_REQUEST', ACCOUNT_MESSAGES.period);
  if (Date.parse(to) - Date.parse(from) > (MAX_STATEMENT_DAYS - 1) * 86_400_000)
    throw appError('BAD_REQUEST', ACCOUNT_MESSAGES.periodTooLong);
  const user = await q.userById(db, customerId);
  const account = user?.role === 'CUSTOMER' ? await q.findAccount(db, customerId) : undefined;
  if (!user || !account) throw appError('NOT_FOUND', ACCOUNT_MESSAGES.noAccount);
  const until = startOfLocalDate(addDays(to, 1));
  const entries = await ledgerEntries(db, customerId, until);
  const s = statementOf(entries, from, to);
  const byKey = new Map(entries.map((e) => [`${e.kind}:${e.seq}`, e]));
  const agedAtEnd = ageing(await q.openAt(db, customerId, until), to);
  return {
    customerId,
    name: user.name,
    accountRef: customerAccountRef(customerId),
    from,
    to,
    opening: fromCents(s.openingCents),
    invoices: fromCents(s.invoicesCents),
    payments: fromCents(s.paymentsCents),
    credits: fromCents(s.creditsCents),
    reversals: fromCents(s.reversalsCents),
    closing: fromCents(s.closingCents),
    lines: s.lines.map((l) => {
      const e = byKey.get(`${l.kind}:${l.seq}`)!;
      const up = l.kind === 'invoice' || l.kind === 'reversal';
      return {
        date: l.date,
        kind: l.kind,
        reference: l.reference,
        debit: up ? fromCents(l.cents) : 0,
        credit: up ? 0 : fromCents(l.cents),
        balance: fromCents(l.balanceCents),
        orderId: e.orderId,
        dueDate: e.dueDate,
      };
    }),
    ageing: kesAgeing(agedAtEnd),
    overdue: fromCents(overdueOf(agedAtEnd)),
  };
}

/**
 * Every account with its balance, what is overdue, the ageing and the last payment, as of a day (today by
 * default); the totals are the sums of the rows, and each row is what that account's statement up to the
 * day closes with.
 */
export async function receivablesView(db: DbOrTx, asOf: string): Promise<TReceivables> {
  const accounts = await q.accountsWithOpen(db);
  const until = startOfLocalDate(addDays(asOf, 1));
  const rows: TReceivables['rows'] = [];
  const totals = {
    balance: 0,
    overdue: 0,
    aged: { current: 0, d1_30: 0, d31_60: 0, d61_90: 0, d90_plus: 0 },
  };
  for (const a of accounts) {
    const entries = await ledgerEntries(db, a.customerId, until);
    const s = statementOf(entries, asOf, asOf);
    const aged = ageing(await q.openAt(db, a.customerId, until), asOf);
    const lastPayment = entries
      .filter((e) => e.kind === 'payment')
      .reduce<string | null>((m, e) => (m === null || e.at > m ? e.at : m), null);
    totals.balance += s.closingCents;
    totals.overdue += overdueOf(aged);
    for (const k of Object.keys(aged) as (keyof typeof aged)[]) totals.aged[k] += aged[k];
    rows.push({
      customerId: a.customerId,
      name: a.name,
      accountRef: customerAccountRef(a.customerId),
      creditLimit: fromCents(a.creditLimitCents),
      termsDays: a.termsDays,
      balance: fromCents(s.closingCents),
      overdue: fromCents(overdueOf(aged)),
      ageing: kesAgeing(aged),
      lastPaymentAt: lastPayment,
    });
  }
  return {
    asOf,
    rows,
    totals: {
      balance: fromCents(totals.balance),
      overdue: fromCents(totals.overdue),
      ageing: kesAgeing(totals.aged),
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// The statement as a document

export interface StatementRequest {
  user: CtxUser | null;
  customerId: number;
  from: string;
  to: string;
  format: 'json' | 'pdf' | 'csv';
  lang?: 'en' | 'sw' | undefined;
}

export type StatementAnswer =
  | { format: 'json'; statement: TStatement }
  | { format: 'pdf' | 'csv'; body: Buffer | string; filename: string };

/**
 * A statement as JSON, a PDF (pdfkit, as the receipts; the customer's language unless `lang`) or CSV
 * (papaparse): to ADMIN for any account and to a customer for their own (core/access); anyone else, and
 * a customer without an account, gets 404.
 */
export async function statementDocument(
  db: DbOrTx,
  settings: Pick<Settings, 'mpesa' | 'yard' | 'dispatch'>,
  req: StatementRequest,
): Promise<StatementAnswer> {
  if (!req.user) throw appError('UNAUTHORIZED', ACCOUNT_MESSAGES.signInRequired);
  if (!mayReadAccount(req.user, req.customerId)) throw appError('NOT_FOUND', ACCOUNT_MESSAGES.noAccount);
  const s = await statement(db, req.customerId, req.from, req.to);
  if (req.format === 'json') return { format: 'json', statement: s };
  const name = `statement-${s.accountRef}-${s.from}-${s.to}`;
  if (req.format === 'csv') return { format: 'csv', body: statementCsv(s), filename: `${name}.csv` };
  const branch = await activeBranch(db);
  const lang = req.lang ?? (await iq.customerLanguage(db, req.customerId)) ?? 'en';
  const paybills = settings.mpesa.shortcode
    ? `M-Pesa paybill ${settings.mpesa.shortcode}`
    : PAYMENT_BANKS.map((b) => `${b.bank} ${b.paybill}`).join(', ');
  const pdf = await renderStatementPdf({
    statement: s,
    lang,
    business: {
      name: branch?.taxpayerName ?? 'Mchanga',
      pin: branch?.tin ?? null,
      place: settings.yard.name,
      phone: settings.dispatch.phone,
      email: settings.dispatch.email,
    },
    paybills,
  });
  return { format: 'pdf', body: pdf, filename: `${name}.pdf` };
}
