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

type LogFn = (...args: unknown[]) => unknown;
type AnyLogger = Record<PropertyKey, unknown> & { child(bindings: object, options?: object): AnyLogger };
const DELEGATED = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'child', 'bindings'] as const;
const kParent = Symbol('parent');
const kBindings = Symbol('bindings');
const kOptions = Symbol('options');
const kChild = Symbol('child');
const lazyProtos = new WeakMap<object, object>();

function materialize(lazy: AnyLogger): AnyLogger {
  let child = lazy[kChild] as AnyLogger | undefined;
  if (!child) {
    child = (lazy[kParent] as AnyLogger).child(lazy[kBindings] as object, lazy[kOptions] as object);
    lazy[kChild] = child;
  }
  return child;
}

function lazyProto(parent: AnyLogger): object {
  let proto = lazyProtos.get(parent);
  if (!proto) {
    const methods = Object.create(parent) as Record<PropertyKey, unknown>;
    for (const name of DELEGATED)
      methods[name] = function (this: AnyLogger, ...args: unknown[]) {
        const child = materialize(this);
        return (child[name] as LogFn).apply(child, args) as unknown;
      };
    proto = methods;
    lazyProtos.set(parent, proto);
  }
  return proto;
}

/**
 * Fastify's request logger (`req.log`), made only when the request logs something: a pino child per
 * request (with its bindings and redaction) was a measurable share of every answer on the hot path
 * (issue 12), and requests that succeed log nothing. Until then it reads as the app's logger.
 */
export function lazyChildLogger(logger: unknown, bindings: object, options: object): never {
  const lazy = Object.create(lazyProto(logger as AnyLogger)) as AnyLogger;
  lazy[kParent] = logger;
  lazy[kBindings] = bindings;
  lazy[kOptions] = options;
  return lazy as never;
}
