/**
 * Contractor accounts on credit terms (issue 24), pure: what a payment pays, what a credit note gives
 * back, how old what is owed is, whether a load fits the credit limit, and a statement's lines. All money
 * is integer cents; every split sums exactly to what was split. `asOf` dates are Africa/Nairobi calendar
 * dates (YYYY-MM-DD), passed in.
 */
import { addDays } from './time';

/** The paybill account number of a customer's account: `MCA<customer id>` (`MCH<order id>` names one order). */
export const ACCOUNT_REF_PREFIX = 'MCA';

export function customerAccountRef(customerId: number): string {
  return `${ACCOUNT_REF_PREFIX}${customerId}`;
}

/**
 * The customer id in an account number as a payer typed it (spaces, dashes, dots, underscores and letter
 * case do not matter: `mca 7`, `MCA-0007`). Anything else is not an account's.
 */
export function parseCustomerAccountRef(typed: string | null | undefined): number | null {
  if (!typed) return null;
  const compact = typed.replace(/[\s\-_.]/g, '').toUpperCase();
  const match = /^MCA0*(\d{1,10})$/.exec(compact);
  if (!match) return null;
  const id = Number(match[1]);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}

/** An invoice with something still to pay on it. */
export interface OpenReceivable {
  invoiceId: number;
  /** When it was issued (ISO instant): the oldest is paid first; equal instants by invoice id. */
  issuedAt: string;
  /** The day it falls due (issue day + the account's terms). */
  dueDate: string;
  openCents: number;
}

export interface Allocation {
  invoiceId: number;
  cents: number;
}

export interface AllocationResult {
  allocations: Allocation[];
  /** What is left over: a credit on the account. */
  creditCents: number;
}

const oldestFirst = (a: OpenReceivable, b: OpenReceivable) =>
  a.issuedAt < b.issuedAt ? -1 : a.issuedAt > b.issuedAt ? 1 : a.invoiceId - b.invoiceId;

/**
 * What a payment (or a credit on the account) pays: the invoice the payer names first, when it is open,
 * then the oldest open invoices in turn; whatever is left over is a credit on the account. The parts sum
 * to `amountCents` exactly. A named invoice that is not open (paid, unknown) is passed over, not refused:
 * the money is the customer's either way.
 */
export function allocatePayment(
  amountCents: number,
  open: readonly OpenReceivable[],
  namedInvoiceId?: number | null,
): AllocationResult {
  if (!Number.isInteger(amountCents) || amountCents < 0) throw new RangeError(`Not cents: ${amountCents}`);
  const ordered = open.filter((r) => r.openCents > 0).sort(oldestFirst);
  const named = ordered.findIndex((r) => r.invoiceId === namedInvoiceId);
  if (named > 0) ordered.unshift(...ordered.splice(named, 1));
  let left = amountCents;
  const allocations: Allocation[] = [];
  for (const r of ordered) {
    if (left === 0) break;
    const cents = Math.min(left, r.openCents);
    allocations.push({ invoiceId: r.invoiceId, cents });
    left -= cents;
  }
  return { allocations, creditCents: left };
}

/** A part of a payment standing against an invoice. */
export interface StandingAllocation {
  id: number;
  paymentId: number;
  cents: number;
  /** When it was made (ISO instant): the newest is released first. */
  at: string;
}

/**
 * A credit note against an invoice: it takes what is still open first; past that, the newest payments
 * standing against the invoice are released (they go back to the account as credit, to pay the next
 * open invoice). Answers how much each standing allocation gives back. Never more than the invoice's
 * total less what was credited before (the caller refuses that).
 */
export function releaseForCredit(
  openCents: number,
  creditCents: number,
  standing: readonly StandingAllocation[],
): { allocationId: number; paymentId: number; cents: number }[] {
  let toRelease = Math.max(0, creditCents - Math.max(0, openCents));
  const released: { allocationId: number; paymentId: number; cents: number }[] = [];
  const newestFirst = [...standing].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : b.id - a.id));
  for (const a of newestFirst) {
    if (toRelease === 0) break;
    const cents = Math.min(a.cents, toRelease);
    released.push({ allocationId: a.id, paymentId: a.paymentId, cents });
    toRelease -= cents;
  }
  if (toRelease > 0) throw new RangeError('A credit note larger than what is left of the invoice');
  return released;
}

/**
 * A payment reversed (a bounced bank transfer, an M-Pesa reversal): every invoice it paid is open again by
 * that much, and the credit it left on the account is gone. Answers what goes back on each invoice.
 */
export function reversePayment(standing: readonly { invoiceId: number; cents: number }[]): Allocation[] {
  const byInvoice = new Map<number, number>();
  for (const a of standing) byInvoice.set(a.invoiceId, (byInvoice.get(a.invoiceId) ?? 0) + a.cents);
  return [...byInvoice.entries()]
    .sort(([a], [b]) => a - b)
    .map(([invoiceId, cents]) => ({ invoiceId, cents }));
}

/** The day an invoice falls due: its (Nairobi) issue day plus the account's terms. */
export function dueDateOf(issueDate: string, termsDays: number): string {
  return addDays(issueDate, termsDays);
}

/** Whole days from `from` to `to` (calendar dates). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

export interface Ageing {
  /** Not yet due. */
  current: number;
  d1_30: number;
  d31_60: number;
  d61_90: number;
  d90_plus: number;
}

export const AGEING_BUCKETS = ['current', 'd1_30', 'd31_60', 'd61_90', 'd90_plus'] as const;

/** Which bucket an amount falls due on `dueDate` sits in on `asOf`: days past due 0 → current. */
export function ageingBucket(dueDate: string, asOf: string): keyof Ageing {
  const late = daysBetween(dueDate, asOf);
  if (late <= 0) return 'current';
  if (late <= 30) return 'd1_30';
  if (late <= 60) return 'd31_60';
  if (late <= 90) return 'd61_90';
  return 'd90_plus';
}

/** What is open, by how far past its due date it is on `asOf` (cents). */
export function ageing(open: readonly Pick<OpenReceivable, 'dueDate' | 'openCents'>[], asOf: string): Ageing {
  const buckets: Ageing = { current: 0, d1_30: 0, d31_60: 0, d61_90: 0, d90_plus: 0 };
  for (const r of open) if (r.openCents > 0) buckets[ageingBucket(r.dueDate, asOf)] += r.openCents;
  return buckets;
}

/** What is past due: every bucket but current. */
export const overdueOf = (a: Ageing) => a.d1_30 + a.d31_60 + a.d61_90 + a.d90_plus;

export interface CreditCheck {
  limitCents: number;
  /** What the account owes now (invoices − credit notes − payments; negative when in credit). */
  balanceCents: number;
  /** Loads of its orders on terms that are scheduled or on the road, not yet invoiced. */
  scheduledCents: number;
  /** The load being scheduled. */
  loadCents: number;
}

/**
 * Whether a load fits the account's credit: what is owed + what is scheduled and not yet invoiced + this
 * load ≤ the limit. `availableCents` is what the limit leaves before this load (never below 0).
 */
export function creditCheck(c: CreditCheck): { fits: boolean; availableCents: number } {
  const availableCents = Math.max(0, c.limitCents - c.balanceCents - c.scheduledCents);
  return { fits: c.balanceCents + c.scheduledCents + c.loadCents <= c.limitCents, availableCents };
}

export const STATEMENT_LINE_KINDS = ['invoice', 'credit', 'payment', 'reversal'] as const;
export type StatementLineKind = (typeof STATEMENT_LINE_KINDS)[number];

/** One thing that moved the account's balance. */
export interface LedgerEntry {
  kind: StatementLineKind;
  /** When it happened (ISO instant); its Nairobi date is the line's date. */
  at: string;
  /** Its Nairobi calendar date. */
  date: string;
  /** INV-12, CN-13, the M-Pesa receipt or bank reference. */
  reference: string;
  /** Always positive: the kind says which way it moves the balance. */
  cents: number;
  /** Tie-break within an instant (an id). */
  seq: number;
}

/** Invoices and reversed payments raise what is owed; payments and credit notes lower it. */
export const signedCents = (e: Pick<LedgerEntry, 'kind' | 'cents'>) =>
  e.kind === 'invoice' || e.kind === 'reversal' ? e.cents : -e.cents;

export interface StatementTotals {
  openingCents: number;
  invoicesCents: number;
  paymentsCents: number;
  creditsCents: number;
  /** Payments reversed in the period (they add back). */
  reversalsCents: number;
  closingCents: number;
}

/**
 * A statement for [from, to] (calendar dates, both included): the balance before `from`, each entry in
 * the period with the balance after it, and the balance at the end, so that closing = opening + invoices
 * − payments − credit notes (+ payments reversed) exactly.
 */
export function statementOf(
  entries: readonly LedgerEntry[],
  from: string,
  to: string,
): StatementTotals & { lines: (LedgerEntry & { balanceCents: number })[] } {
  const sorted = [...entries].sort((a, b) =>
    a.at < b.at ? -1 : a.at > b.at ? 1 : a.kind === b.kind ? a.seq - b.seq : a.kind < b.kind ? -1 : 1,
  );
  let openingCents = 0;
  const totals = { invoicesCents: 0, paymentsCents: 0, creditsCents: 0, reversalsCents: 0 };
  const lines: (LedgerEntry & { balanceCents: number })[] = [];
  for (const e of sorted) {
    if (e.date < from) {
      openingCents += signedCents(e);
      continue;
    }
    if (e.date > to) continue;
    if (e.kind === 'invoice') totals.invoicesCents += e.cents;
    else if (e.kind === 'payment') totals.paymentsCents += e.cents;
    else if (e.kind === 'credit') totals.creditsCents += e.cents;
    else totals.reversalsCents += e.cents;
    lines.push({ ...e, balanceCents: 0 });
  }
  let running = openingCents;
  for (const line of lines) {
    running += signedCents(line);
    line.balanceCents = running;
  }
  return { openingCents, ...totals, closingCents: running, lines };
}
