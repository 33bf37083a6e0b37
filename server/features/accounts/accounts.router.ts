import { recordAccountPayment } from '../../../core/accounts/account-payments';
import {
  creditLoadInvoice,
  findCustomers,
  myAccount,
  putAccount,
  readAccount,
  receivablesView,
  reverseAccountPayment,
  statementDocument,
} from '../../../core/accounts/accounts.service';
import { localDate } from '../../../shared/domain/time';
import {
  ZAccount,
  ZAccountCreditNoteInput,
  ZAccountInput,
  ZAccountPayment,
  ZAccountPaymentInput,
  ZCustomerIdInput,
  ZCustomerMatch,
  ZCustomerSearchInput,
  ZMyAccount,
  ZReceivables,
  ZReceivablesInput,
  ZReversePaymentInput,
  ZStatement,
  ZStatementInput,
} from '../../../shared/schemas/accounts';
import { ZCreditNoteResult } from '../../../shared/schemas/invoices';
import { roleProcedure, router } from '../../trpc';

const adminProcedure = roleProcedure('ADMIN');

/** Customer accounts on credit terms (issue 24): terms and limits, payments, the receivables view. */
export const accountsAdminRouter = router({
  /** Finds a customer to give terms to, by part of the name, e-mail or phone. */
  customers: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/customers',
        summary:
          'Customers whose name, e-mail or phone holds q (at least 2 characters), by name, at most 20, with their account number (MCA<id>) and whether they have terms',
        example: { q: 'Kamau' },
      },
    })
    .input(ZCustomerSearchInput)
    .output(ZCustomerMatch.array())
    .query(({ ctx, input }) => findCustomers(ctx.db, input)),

  get: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/customers/:id/account',
        summary:
          "A customer's account on terms: limit, terms, KRA PIN, billing contact, balance, overdue, available and its paybill account number (MCA<id>)",
        errors: [404],
        example: { id: '7' },
      },
    })
    .input(ZCustomerIdInput)
    .output(ZAccount)
    .query(({ ctx, input }) => readAccount(ctx.db, input.id, ctx.now())),

  put: adminProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/admin/customers/:id/account',
        summary:
          'Give a customer (or change) a credit limit and terms in days, a KRA PIN and a billing contact (KES)',
        errors: [404],
        example: {
          id: '7',
          creditLimit: 500000,
          termsDays: 30,
          kraPin: 'P051234567X',
          billingEmail: 'accounts@wanjiru.co.ke',
          billingPhone: '0722000111',
        },
      },
    })
    .input(ZAccountInput)
    .output(ZAccount)
    .mutation(({ ctx, input }) => putAccount(ctx.db, ctx.user, input, ctx.now())),

  /** A bank transfer (or a checked M-Pesa receipt) ops confirm on an account: allocated at once. */
  recordPayment: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/customers/:id/account/payments',
        summary:
          "Confirm a payment received on a customer's account (a bank transfer seen on the statement): paid to the invoice named, then the oldest open ones; the rest stays as credit",
        status: 201,
        errors: [404, 409],
        example: { id: '7', amount: 64000, method: 'Equity', reference: 'EQ2611240001', invoiceId: 12 },
      },
    })
    .input(ZAccountPaymentInput)
    .output(ZAccountPayment)
    .mutation(({ ctx, input }) => recordAccountPayment(ctx.db, ctx.user, input, ctx.now())),

  reversePayment: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/account-payments/:id/reverse',
        summary:
          'Reverse an account payment (a bounced transfer, an M-Pesa reversal): the invoices it paid are open again',
        errors: [404, 409],
        example: { id: '31', reason: 'Cheque returned unpaid by the bank' },
      },
    })
    .input(ZReversePaymentInput)
    .output(ZAccountPayment)
    .mutation(({ ctx, input }) => reverseAccountPayment(ctx.db, ctx.user, input, ctx.now())),

  /** A credit note against one delivered load's invoice of an account: it lowers what is owed. */
  creditNote: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/invoices/:id/credit-note',
        summary:
          "Issue a credit note against an account's load invoice (the whole of what is left when amount is absent; never more): what is owed goes down, payments past it go back to the account as credit",
        status: 201,
        errors: [404, 409],
        example: { id: 12, amount: 3200, reason: '01', note: 'One tonne short at the site' },
      },
    })
    .input(ZAccountCreditNoteInput)
    .output(ZCreditNoteResult)
    .mutation(({ ctx, input }) => creditLoadInvoice(ctx.db, ctx.user, input, ctx.now())),

  receivables: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/receivables',
        summary:
          'Every account with its balance, overdue, ageing (current, 1–30, 31–60, 61–90, 90+ days) and last payment, as of a day (today by default), with totals',
        example: { asOf: '2026-11-30' },
      },
    })
    .input(ZReceivablesInput)
    .output(ZReceivables)
    .query(({ ctx, input }) => receivablesView(ctx.db, input?.asOf ?? localDate(ctx.now()))),
});

/** The signed-in customer's own account on My Orders. */
export const accountsCustomerRouter = router({
  mine: roleProcedure('CUSTOMER')
    .meta({
      rest: {
        method: 'GET',
        path: '/api/customers/me/account',
        summary:
          'My account on terms (null without one): balance, overdue, limit, available, terms and the paybill account number to pay it with',
      },
    })
    .output(ZMyAccount)
    .query(({ ctx }) => myAccount(ctx.db, ctx.user, ctx.now())),

  /**
   * A statement for the screens (ADMIN any account, a customer their own; core/access). REST and the
   * documents answer at GET /api/customers/{id}/statement (statement.route.ts).
   */
  statement: roleProcedure('ADMIN', 'CUSTOMER')
    .input(ZStatementInput)
    .output(ZStatement)
    .query(async ({ ctx, input }) => {
      const answer = await statementDocument(ctx.db, ctx.deps.settings, {
        user: ctx.user,
        customerId: input.id,
        from: input.from,
        to: input.to,
        format: 'json',
      });
      if (answer.format !== 'json') throw new Error('A statement for the screens is JSON');
      return answer.statement;
    }),
});
