import type { FastifyInstance, FastifyReply } from 'fastify';
import { orderDocument } from '../../../core/documents/documents.service';
import { appError } from '../../../core/errors';
import { INVOICE_MESSAGES } from '../../../shared/schemas/invoices';
import { type AppDeps, createRequestContext } from '../../context';

const ID = /^[1-9]\d{0,8}$/;

interface DocumentQuery {
  token?: string;
  lang?: string;
}

function languageOf(value: string | undefined) {
  if (value === undefined || value === '') return undefined;
  if (value === 'en' || value === 'sw') return value;
  throw appError('BAD_REQUEST', 'Choose the language en or sw.');
}

function sendPdf(reply: FastifyReply, doc: { pdf: Buffer; filename: string }) {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${doc.filename}"`)
    .header('cache-control', 'private, no-store')
    .send(doc.pdf);
}

/**
 * GET /api/orders/:id/receipt and /api/orders/:id/credit-notes/:number: the order's receipt (its tax
 * invoice once KRA signed it) and credit notes as PDFs, to the order's customer, ADMIN and OPS (bearer
 * token) and to whoever holds the order's tracking link (`?token=`); 404 to everyone else.
 */
export function registerDocumentRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get<{ Params: { id: string }; Querystring: DocumentQuery }>(
    '/api/orders/:id/receipt',
    async (req, reply) => {
      const ctx = await createRequestContext(deps, req);
      if (!ID.test(req.params.id)) throw appError('NOT_FOUND', INVOICE_MESSAGES.orderNotFound);
      const doc = await orderDocument(ctx.db, deps.settings, {
        orderId: Number(req.params.id),
        user: ctx.user,
        token: req.query.token,
        lang: languageOf(req.query.lang),
      });
      return sendPdf(reply, doc);
    },
  );
  app.get<{ Params: { id: string; number: string }; Querystring: DocumentQuery }>(
    '/api/orders/:id/credit-notes/:number',
    async (req, reply) => {
      const ctx = await createRequestContext(deps, req);
      if (!ID.test(req.params.id)) throw appError('NOT_FOUND', INVOICE_MESSAGES.orderNotFound);
      if (!ID.test(req.params.number)) throw appError('NOT_FOUND', INVOICE_MESSAGES.invoiceNotFound);
      const doc = await orderDocument(ctx.db, deps.settings, {
        orderId: Number(req.params.id),
        creditNote: Number(req.params.number),
        user: ctx.user,
        token: req.query.token,
        lang: languageOf(req.query.lang),
      });
      return sendPdf(reply, doc);
    },
  );
}

const json = (ref: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } });
const err = (description: string) => ({ description, content: json('Error') });
const pdf = (description: string) => ({
  description,
  headers: {
    'Content-Disposition': {
      description: 'attachment; filename="receipt-INV-12-order-42.pdf"',
      schema: { type: 'string' },
    },
  },
  content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
});
const orderId = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'integer', minimum: 1 },
  example: 42,
};
const query = [
  {
    name: 'token',
    in: 'query',
    required: false,
    description:
      "The order's tracking token (the last part of its /track/{token} link): opens the document without signing in. Not needed by the order's customer, ADMIN or OPS with their bearer token.",
    schema: { type: 'string', maxLength: 100 },
    example: '3f9c1b7e0d4a4c2e9b8f6a5d4c3b2a10',
  },
  {
    name: 'lang',
    in: 'query',
    required: false,
    description:
      "The document's language: en or sw; the customer's own language by default (en for a guest).",
    schema: { type: 'string', enum: ['en', 'sw'] },
    example: 'sw',
  },
];
const security = [{ bearerAuth: [] }, {}];

/**
 * The document routes in OpenAPI: server/raw-routes.ts lists them with the other raw routes (and types
 * them there as RawRoute; this file does not import it back).
 */
export const DOCUMENT_ROUTES = [
  {
    method: 'GET',
    path: '/api/orders/{id}/receipt',
    access: 'public',
    probe: { path: '/api/orders/1/receipt' },
    operation: {
      operationId: 'orders.receipt',
      summary: "An order's receipt (its KRA eTIMS tax invoice) as a PDF",
      description:
        "Issued when the order is paid in full. In the customer's language (English or Kiswahili): business name and KRA PIN, customer (and KRA PIN if given), order, loads, amounts with the tax, the M-Pesa or bank reference, and — once KRA signed it — the eTIMS SCU details (SCU date and time, SCU id, CU invoice and receipt numbers, internal data, receipt signature) with the verification QR code and its URL; \"eTIMS invoice pending\" until then. For the order's customer, ADMIN and OPS, and for whoever holds the order's tracking token (`?token=`); anyone else gets 404, as does an order not yet paid.",
      security,
      parameters: [orderId, ...query],
      responses: {
        200: pdf('The receipt'),
        400: err('lang is neither en nor sw'),
        404: err('No such order, not yours, or not paid yet'),
      },
    },
  },
  {
    method: 'GET',
    path: '/api/orders/{id}/credit-notes/{number}',
    access: 'public',
    probe: { path: '/api/orders/1/credit-notes/2' },
    operation: {
      operationId: 'orders.creditNote',
      summary: "One of an order's credit notes as a PDF",
      description:
        'A credit note (KRA receipt type R) against the order’s sale, by its invoice number: what it credits, the original invoice, the reason, and the eTIMS SCU details and QR code once KRA signed it. Who may read it, as for the receipt.',
      security,
      parameters: [
        orderId,
        {
          name: 'number',
          in: 'path',
          required: true,
          description: 'The credit note’s invoice number (CN-13 is 13)',
          schema: { type: 'integer', minimum: 1 },
          example: 13,
        },
        ...query,
      ],
      responses: {
        200: pdf('The credit note'),
        400: err('lang is neither en nor sw'),
        404: err('No such order or credit note, or not yours'),
      },
    },
  },
] as const;
