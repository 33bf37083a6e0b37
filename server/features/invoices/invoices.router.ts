import { issueCreditNote, listInvoices, sendInvoiceAgain } from '../../../core/invoices/invoices.service';
import {
  ZCreditNoteInput,
  ZCreditNoteResult,
  ZInvoiceIdInput,
  ZInvoiceList,
  ZInvoiceListInput,
  ZSendAgainResult,
} from '../../../shared/schemas/invoices';
import { roleProcedure, router } from '../../trpc';

const adminProcedure = roleProcedure('ADMIN');

/** Sales invoices and credit notes with KRA eTIMS (issue 23): the finance view, send again, credit notes. */
export const invoicesRouter = router({
  list: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/invoices',
        summary:
          'Invoices and credit notes, newest first, by eTIMS status (status=pending|sent|signed|failed|off)',
        example: { status: 'failed' },
      },
    })
    .input(ZInvoiceListInput)
    .output(ZInvoiceList)
    .query(({ ctx, input }) => listInvoices(ctx.db, input?.status)),

  /** A refused invoice back in the queue, or a waiting one now: safe to press twice. */
  sendAgain: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/invoices/:id/send',
        summary: 'Send an invoice to KRA eTIMS again (safe to repeat: KRA holds one invoice per number)',
        errors: [404],
        example: { id: 12 },
      },
    })
    .input(ZInvoiceIdInput)
    .output(ZSendAgainResult)
    .mutation(({ ctx, input }) => sendInvoiceAgain(ctx.db, input.id, ctx.now())),

  creditNote: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/orders/:id/credit-note',
        summary:
          "Issue a credit note against a paid order's sale (the whole of what is left when amount is absent; never more)",
        status: 201,
        errors: [404, 409],
        example: { id: 42, amount: 16000, reason: '06', note: 'One load not delivered' },
      },
    })
    .input(ZCreditNoteInput)
    .output(ZCreditNoteResult)
    .mutation(({ ctx, input }) => issueCreditNote(ctx.db, ctx.user, input, ctx.now())),
});
