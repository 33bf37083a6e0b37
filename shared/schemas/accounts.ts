import { z } from 'zod';
import { STATEMENT_LINE_KINDS } from '../domain/accounts';
import { formatMoney } from '../domain/format';
import { PAYMENT_METHODS } from '../payments';
import { ZEmail, ZPhone } from './auth';
import {
  blankToNull,
  blankToUndefined,
  hasControlCharacters,
  LIMITS,
  zCalendarDate,
  zIntId,
  zKes,
  zNumber,
  zText,
} from './common';
import { ZCreditNoteInput, ZKraPin } from './invoices';

/** The largest credit limit one account may have (KES). */
export const MAX_CREDIT_LIMIT_KES = LIMITS.amountKes;
/** The longest terms (days). */
export const MAX_TERMS_DAYS = 365;
/** The longest statement period (days), so one request stays small. */
export const MAX_STATEMENT_DAYS = 366;

export const ACCOUNT_MESSAGES = {
  customerNotFound: 'Customer not found.',
  signInRequired: 'Sign in to read a statement.',
  customersOnly: 'Only a customer has a statement of their own.',
  statementRoles: 'Statements are for ADMIN and the account’s customer.',
  notACustomer: 'Only a customer can have an account on terms.',
  noAccount: 'This customer has no account on terms.',
  creditLimit: 'Enter the credit limit in KES (0 or more).',
  termsDays: `Enter the terms in days, from 0 to ${MAX_TERMS_DAYS}.`,
  from: 'Choose the first day of the statement.',
  to: 'Choose the last day of the statement.',
  period: 'The statement ends before it starts.',
  periodTooLong: `A statement covers at most ${MAX_STATEMENT_DAYS} days.`,
  /** The refusal of a load past the account's credit (409), naming the limit, the balance and what is overdue. */
  overLimit: (limit: number, balance: number, overdue: number, load: number) =>
    `Over the credit limit: the limit is ${formatMoney(limit)}, the balance ${formatMoney(balance)} ` +
    `(${formatMoney(overdue)} overdue) and this load ${formatMoney(load)} would take it past the limit. ` +
    'An ADMIN may override it with a reason.',
  overrideReasonRequired: 'Give the reason for scheduling past the credit limit.',
  paymentNotFound: 'Payment not found.',
  reversedAlready: 'This payment is reversed already.',
  reverseReasonRequired: 'Give the reason for the reversal.',
  amount: 'Enter the amount received in KES.',
  reference: 'Enter the bank or M-Pesa reference.',
  referenceUsed: 'This reference is recorded on this account already.',
  invoiceNotFound: 'Invoice not found on this account.',
  search: 'Type at least 2 letters or digits of a name, e-mail or phone.',
} as const;

export const ZCustomerIdInput = z.object({ id: zIntId(ACCOUNT_MESSAGES.customerNotFound) });

/** ADMIN finds a customer by part of the name, e-mail or phone (the credit terms form). */
export const ZCustomerSearchInput = z.object({
  q: z
    .string({ error: ACCOUNT_MESSAGES.search })
    .trim()
    .min(2, ACCOUNT_MESSAGES.search)
    .max(80, ACCOUNT_MESSAGES.search)
    .refine((s) => !hasControlCharacters(s), ACCOUNT_MESSAGES.search),
});
export type TCustomerSearchInput = z.infer<typeof ZCustomerSearchInput>;

export const ZCustomerMatch = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  /** MCA<id>: what the customer pays to. */
  accountRef: z.string(),
  /** Has credit terms already. */
  onTerms: z.boolean(),
});
export type TCustomerMatch = z.infer<typeof ZCustomerMatch>;

const zOptionalEmail = z.preprocess(blankToNull, ZEmail.nullable().optional());
const zOptionalPhone = z.preprocess(blankToNull, ZPhone.nullable().optional());

export const ZAccountInput = z.object({
  id: zIntId(ACCOUNT_MESSAGES.customerNotFound),
  /** KES; 0 means nothing may be scheduled on credit. */
  creditLimit: zKes(ACCOUNT_MESSAGES.creditLimit, MAX_CREDIT_LIMIT_KES, true),
  termsDays: zNumber({
    message: ACCOUNT_MESSAGES.termsDays,
    zero: true,
    max: MAX_TERMS_DAYS,
    maxMessage: ACCOUNT_MESSAGES.termsDays,
    decimals: 0,
    decimalsMessage: ACCOUNT_MESSAGES.termsDays,
  }),
  kraPin: ZKraPin,
  billingEmail: zOptionalEmail,
  billingPhone: zOptionalPhone,
});
export type TAccountInput = z.infer<typeof ZAccountInput>;

export const ZAgeing = z.object({
  current: z.number(),
  d1_30: z.number(),
  d31_60: z.number(),
  d61_90: z.number(),
  d90_plus: z.number(),
});
export type TAgeing = z.infer<typeof ZAgeing>;

/** An account as ADMIN reads it back (KES). */
export const ZAccount = z.object({
  customerId: z.number(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  creditLimit: z.number(),
  termsDays: z.number(),
  kraPin: z.string().nullable(),
  billingEmail: z.string().nullable(),
  billingPhone: z.string().nullable(),
  /** The paybill account number of the account (MCA<customer id>). */
  accountRef: z.string(),
  /** What is owed: invoices − credit notes − payments (negative: a credit on the account). */
  balance: z.number(),
  /** What of it is past due. */
  overdue: z.number(),
  /** What the limit leaves: limit − balance − loads scheduled and not yet invoiced (never below 0). */
  available: z.number(),
  /** Loads of its orders on terms scheduled or on the road, not yet invoiced. */
  scheduled: z.number(),
  /** Money paid in and not yet on an invoice. */
  credit: z.number(),
  ageing: ZAgeing,
  lastPaymentAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type TAccount = z.infer<typeof ZAccount>;

// ---------------------------------------------------------------------------------------------------
// Payments recorded by ops, and reversals

export const ZAccountPaymentInput = z.object({
  id: zIntId(ACCOUNT_MESSAGES.customerNotFound),
  amount: zKes(ACCOUNT_MESSAGES.amount),
  /** The bank the transfer came through, or the M-Pesa paybill. */
  method: z.enum(PAYMENT_METHODS, { error: 'Choose how it was paid.' }),
  reference: zText({ label: 'Reference', max: 64, required: ACCOUNT_MESSAGES.reference }),
  /** When the money arrived; now when not given. */
  paidAt: z.preprocess(blankToUndefined, z.iso.datetime({ offset: true }).optional()),
  /** The invoice the payer named (its id), paid first. */
  invoiceId: z.preprocess(blankToUndefined, zIntId(ACCOUNT_MESSAGES.invoiceNotFound).optional()),
  note: z.preprocess(blankToUndefined, zText({ label: 'Note', max: 300 }).optional()),
});
export type TAccountPaymentInput = z.infer<typeof ZAccountPaymentInput>;

export const ZReversePaymentInput = z.object({
  id: zIntId(ACCOUNT_MESSAGES.paymentNotFound),
  reason: zText({ label: 'Reason', max: 300, required: ACCOUNT_MESSAGES.reverseReasonRequired }),
});
export type TReversePaymentInput = z.infer<typeof ZReversePaymentInput>;

export const ZAccountPayment = z.object({
  id: z.number(),
  customerId: z.number(),
  amount: z.number(),
  reference: z.string(),
  paidAt: z.string(),
  /** What it paid, per invoice (label and KES). */
  allocations: z.array(z.object({ invoiceId: z.number(), invoice: z.string(), amount: z.number() })),
  /** What is left on the account as credit. */
  credit: z.number(),
  reversedAt: z.string().nullable(),
});
export type TAccountPayment = z.infer<typeof ZAccountPayment>;

/** A credit note against one load's invoice of an account (ADMIN): `id` is the invoice's id. */
export const ZAccountCreditNoteInput = ZCreditNoteInput.extend({
  id: zIntId(ACCOUNT_MESSAGES.invoiceNotFound),
});
export type TAccountCreditNoteInput = z.infer<typeof ZAccountCreditNoteInput>;

// ---------------------------------------------------------------------------------------------------
// Statements

export const STATEMENT_FORMATS = ['json', 'pdf', 'csv'] as const;

const statementPeriod = {
  from: zCalendarDate(ACCOUNT_MESSAGES.from),
  to: zCalendarDate(ACCOUNT_MESSAGES.to),
  format: z.preprocess(blankToUndefined, z.enum(STATEMENT_FORMATS).optional()),
  lang: z.preprocess(blankToUndefined, z.enum(['en', 'sw']).optional()),
};

export const ZStatementInput = z.object({
  id: zIntId(ACCOUNT_MESSAGES.customerNotFound),
  ...statementPeriod,
});
export type TStatementInput = z.infer<typeof ZStatementInput>;
export const ZMyStatementInput = z.object(statementPeriod);

export const ZStatementLine = z.object({
  date: z.string(),
  kind: z.enum(STATEMENT_LINE_KINDS),
  reference: z.string(),
  /** Raises what is owed (an invoice, a reversed payment). */
  debit: z.number(),
  /** Lowers it (a payment, a credit note). */
  credit: z.number(),
  balance: z.number(),
  orderId: z.number().nullable(),
  dueDate: z.string().nullable(),
});
export type TStatementLine = z.infer<typeof ZStatementLine>;

export const ZStatement = z.object({
  customerId: z.number(),
  name: z.string(),
  accountRef: z.string(),
  from: z.string(),
  to: z.string(),
  opening: z.number(),
  invoices: z.number(),
  payments: z.number(),
  credits: z.number(),
  reversals: z.number(),
  closing: z.number(),
  lines: z.array(ZStatementLine),
  /** What is open at the end of the period, by days past due. */
  ageing: ZAgeing,
  overdue: z.number(),
});
export type TStatement = z.infer<typeof ZStatement>;

// ---------------------------------------------------------------------------------------------------
// Receivables view

export const RECEIVABLE_SORTS = ['balance', 'overdue', 'name', 'lastPayment'] as const;
export const ZReceivablesInput = z
  .object({ asOf: z.preprocess(blankToUndefined, zCalendarDate('Choose a date.').optional()) })
  .optional();

export const ZReceivableRow = z.object({
  customerId: z.number(),
  name: z.string(),
  accountRef: z.string(),
  creditLimit: z.number(),
  termsDays: z.number(),
  balance: z.number(),
  overdue: z.number(),
  ageing: ZAgeing,
  lastPaymentAt: z.string().nullable(),
});
export const ZReceivables = z.object({
  asOf: z.string(),
  rows: z.array(ZReceivableRow),
  totals: z.object({ balance: z.number(), overdue: z.number(), ageing: ZAgeing }),
});
export type TReceivables = z.infer<typeof ZReceivables>;

/** The customer's own account on My Orders: what is owed and overdue, and how to pay. */
export const ZMyAccount = z
  .object({
    accountRef: z.string(),
    balance: z.number(),
    overdue: z.number(),
    creditLimit: z.number(),
    available: z.number(),
    termsDays: z.number(),
  })
  .nullable();
export type TMyAccount = z.infer<typeof ZMyAccount>;
