import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { type StatementAnswer, statementDocument } from '../../../core/accounts/accounts.service';
import { appError } from '../../../core/errors';
import { ACCOUNT_MESSAGES, ZMyStatementInput, ZStatement } from '../../../shared/schemas/accounts';
import { type AppDeps, createRequestContext } from '../../context';

const ID = /^[1-9]\d{0,8}$/;

interface StatementQuery {
  from?: string;
  to?: string;
  format?: string;
  lang?: string;
}

function periodOf(query: StatementQuery) {
  const parsed = ZMyStatementInput.safeParse(query);
  if (!parsed.success)
    throw appError('BAD_REQUEST', parsed.error.issues[0]?.message ?? ACCOUNT_MESSAGES.from);
  return parsed.data;
}

function send(reply: FastifyReply, answer: StatementAnswer) {
  if (answer.format === 'json')
    return reply.header('cache-control', 'private, no-store').send(answer.statement);
  return reply
    .header('content-type', answer.format === 'pdf' ? 'application/pdf' : 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${answer.filename}"`)
    .header('cache-control', 'private, no-store')
    .send(answer.body);
}

/**
 * GET /api/customers/:id/statement and /api/customers/me/statement: a customer account's statement for a
 * period as JSON, `format=pdf` or `format=csv`. ADMIN reads any account, a customer only their own (the
 * rule is core/access `mayReadAccount`); other roles get 403 and anyone else's account is 404.
 */
export function registerStatementRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get<{ Querystring: StatementQuery }>('/api/customers/me/statement', async (req, reply) => {
    const ctx = await createRequestContext(deps, req);
    if (!ctx.user) throw appError('UNAUTHORIZED', ACCOUNT_MESSAGES.signInRequired);
    if (ctx.user.role !== 'CUSTOMER') throw appError('FORBIDDEN', ACCOUNT_MESSAGES.customersOnly);
    const q = periodOf(req.query);
    return send(
      reply,
      await statementDocument(ctx.db, deps.settings, {
        user: ctx.user,
        customerId: ctx.user.id,
        from: q.from,
        to: q.to,
        format: q.format ?? 'json',
        lang: q.lang,
      }),
    );
  });
  app.get<{ Params: { id: string }; Querystring: StatementQuery }>(
    '/api/customers/:id/statement',
    async (req, reply) => {
      const ctx = await createRequestContext(deps, req);
      if (!ctx.user) throw appError('UNAUTHORIZED', ACCOUNT_MESSAGES.signInRequired);
      if (ctx.user.role !== 'CUSTOMER' && ctx.user.role !== 'ADMIN')
        throw appError('FORBIDDEN', ACCOUNT_MESSAGES.statementRoles);
      if (!ID.test(req.params.id)) throw appError('NOT_FOUND', ACCOUNT_MESSAGES.noAccount);
      const q = periodOf(req.query);
      return send(
        reply,
        await statementDocument(ctx.db, deps.settings, {
          user: ctx.user,
          customerId: Number(req.params.id),
          from: q.from,
          to: q.to,
          format: q.format ?? 'json',
          lang: q.lang,
        }),
      );
    },
  );
}

const json = (ref: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } });
const err = (description: string) => ({ description, content: json('Error') });
const period = [
  {
    name: 'from',
    in: 'query',
    required: true,
    description: 'The first day of the period (Africa/Nairobi), YYYY-MM-DD',
    schema: { type: 'string', format: 'date' },
    example: '2026-09-01',
  },
  {
    name: 'to',
    in: 'query',
    required: true,
    description: 'The last day of the period, included (at most 366 days after from)',
    schema: { type: 'string', format: 'date' },
    example: '2026-11-30',
  },
  {
    name: 'format',
    in: 'query',
    required: false,
    description: 'json (default), pdf or csv',
    schema: { type: 'string', enum: ['json', 'pdf', 'csv'] },
    example: 'pdf',
  },
  {
    name: 'lang',
    in: 'query',
    required: false,
    description: "The PDF's language: en or sw; the customer's own language by default",
    schema: { type: 'string', enum: ['en', 'sw'] },
    example: 'sw',
  },
];
const answers = {
  200: {
    description:
      'The statement: opening balance, lines (invoices, credit notes, payments, reversals) with the balance after each, closing balance (= opening + invoices − payments − credits + reversals) and the ageing of what is open at the end (KES); or the PDF, or the CSV',
    headers: {
      'Content-Disposition': {
        description: 'attachment; filename="statement-MCA7-2026-09-01-2026-11-30.pdf" (pdf and csv)',
        schema: { type: 'string' },
      },
    },
    content: {
      'application/json': {
        schema: z.toJSONSchema(ZStatement, { io: 'output', unrepresentable: 'any', target: 'openapi-3.0' }),
      },
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      'text/csv': { schema: { type: 'string' } },
    },
  },
  400: err('A date is missing or not a date, the period ends before it starts or is longer than 366 days'),
  401: err('Not signed in'),
  403: err('A role that reads no statements'),
  404: err('No such account, or not yours'),
};

/** The statement routes in OpenAPI (listed with the other raw routes in server/raw-routes.ts). */
export const STATEMENT_ROUTES = [
  {
    method: 'GET',
    path: '/api/customers/{id}/statement',
    access: ['ADMIN', 'CUSTOMER'],
    probe: { path: '/api/customers/1/statement?from=2026-09-01&to=2026-09-30' },
    operation: {
      operationId: 'customers.statement',
      summary: "A customer account's statement for a period (JSON, PDF or CSV)",
      description:
        'ADMIN reads any account; a customer only their own (anyone else’s is 404, like an unknown id).',
      parameters: [
        {
          name: 'id',
          in: 'path',
          required: true,
          description: 'The customer’s id (the account number is MCA<id>)',
          schema: { type: 'integer', minimum: 1 },
          example: 7,
        },
        ...period,
      ],
      responses: answers,
    },
  },
  {
    method: 'GET',
    path: '/api/customers/me/statement',
    access: ['CUSTOMER'],
    probe: { path: '/api/customers/me/statement?from=2026-09-01&to=2026-09-30' },
    operation: {
      operationId: 'customers.myStatement',
      summary: 'My account’s statement for a period (JSON, PDF or CSV)',
      description: 'The signed-in customer’s own account; 404 without one.',
      parameters: period,
      responses: answers,
    },
  },
] as const;
