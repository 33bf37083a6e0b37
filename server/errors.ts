import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { ZodError } from 'zod';
import { APP_ERROR_STATUS, AppError } from '../core/errors';
import { isDatabaseUnavailable } from '../drizzle/errors';
import { MESSAGES } from '../shared/constants';

export const GENERIC_SERVER_ERROR = 'Something went wrong on our side. Please try again.';

/** Extra fields a REST error body carries beside `error` (e.g. `duplicate`, `existing`). */
export class ErrorDetails extends Error {
  constructor(
    readonly body: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super('error details');
    this.name = 'ErrorDetails';
  }
}

/** A use case's refusal (core/errors.ts) as tRPC's error, with its extra fields kept for the answer. */
export function fromAppError(err: AppError): TRPCError {
  const hasDetails = Object.keys(err.body).length > 0 || Object.keys(err.headers).length > 0;
  return new TRPCError({
    code: err.code,
    message: err.message,
    cause: hasDetails ? new ErrorDetails(err.body, err.headers) : undefined,
  });
}

const ZOD_DEFAULT = /^(Invalid|Too (small|big)|Unrecognized|Expected)/;

/** One sentence a person can act on; the field is named when zod's own wording is used. */
export function formatZodError(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid input.';
  const field = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') return `Unknown field: ${issue.keys.join(', ')}.`;
  if (field && ZOD_DEFAULT.test(issue.message)) return `${field}: ${issue.message}`;
  return issue.message;
}

export interface HttpError {
  status: number;
  body: { error: string } & Record<string, unknown>;
  headers: Record<string, string>;
}

/** The single mapping from any thrown error to what a client may see. Never a stack trace or SQL. */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof TRPCError) {
    const status = getHTTPStatusCodeFromError(err);
    const details = err.cause instanceof ErrorDetails ? err.cause : undefined;
    return { status, body: { error: publicMessage(err), ...details?.body }, headers: details?.headers ?? {} };
  }
  if (err instanceof AppError)
    return {
      status: APP_ERROR_STATUS[err.code],
      body: { error: err.message, ...err.body },
      headers: err.headers,
    };
  // Outside a procedure (resolving the signed-in user, raw routes): the same 503 for a database away.
  if (isDatabaseUnavailable(err))
    return { status: 503, body: { error: MESSAGES.databaseUnavailable }, headers: { 'retry-after': '2' } };
  const statusCode = (err as { statusCode?: number })?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return {
      status: statusCode,
      body: { error: fastifyClientMessage(err as Error & { code?: string }) },
      headers: {},
    };
  }
  return { status: 500, body: { error: GENERIC_SERVER_ERROR }, headers: {} };
}

export function publicMessage(err: TRPCError): string {
  if (err.cause instanceof ZodError) return formatZodError(err.cause);
  if (err.code === 'INTERNAL_SERVER_ERROR') return GENERIC_SERVER_ERROR;
  if (err.code === 'PARSE_ERROR') return 'The request body is not valid JSON.';
  return err.message;
}

function fastifyClientMessage(err: Error & { code?: string }): string {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request is too large.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Send the request body as application/json.';
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return 'The address is too long.';
    case 'FST_ERR_BAD_URL':
      return 'The address is not valid.';
    default:
      return /^[\w ,.'()-]+$/.test(err.message) ? err.message : 'The request could not be read.';
  }
}
