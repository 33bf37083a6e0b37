import type { FastifyServerOptions } from 'fastify';
import { serializeError } from '../shared/logger';

/**
 * The server's pino options: errors through the redacting serializer (no query parameters, row
 * details or stacks), credentials and cookies redacted from request logs; Fastify logs no line per
 * request (app.ts), only what went wrong.
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  const options = {
    level,
    ...(stream ? { stream } : {}),
    serializers: { err: serializeError, error: serializeError },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["idempotency-key"]',
        'res.headers["set-cookie"]',
        '*.password',
        '*.newPassword',
        '*.currentPassword',
        '*.token',
        '*.phone',
      ],
      censor: '[redacted]',
    },
  };
  // Fastify's type wants pino's own error shape (with a stack); ours leaves the stack out by design.
  return options as unknown as FastifyServerOptions['logger'];
}
