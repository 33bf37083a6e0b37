/**
 * A REST call of a procedure without tRPC's generic middleware runner, for a procedure whose chain holds
 * nothing but the dependency guard, its input schemas and its resolver (server/rest.ts decides per route).
 * tRPC copies its options object and adds a promise at every step of the chain; on the public quote that
 * was a quarter of the server's time per call (bench:quote). The result is the same: the same schema
 * parses the input, the same resolver runs with the same options, and a failure is the same error.
 */
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { Context } from './context';
import { guardDependencies, knownFailure, type Meta } from './trpc';

export interface CallOptions {
  ctx: Context;
  path: string;
  type: 'query' | 'mutation';
  getRawInput: () => Promise<unknown>;
  signal: undefined;
  batchIndex: number;
}

/** A procedure as tRPC's own caller invokes it: the whole chain of middlewares, input parsing and resolver. */
export interface Procedure {
  (opts: CallOptions): Promise<unknown>;
  _def: {
    meta?: Meta;
    inputs?: unknown[];
    output?: unknown;
    type: 'query' | 'mutation';
    middlewares?: Array<{ _type?: string }>;
    resolver?: (opts: CallOptions & { input: unknown; meta: Meta | undefined }) => unknown;
  };
}

/** The raw input of a REST call, bound as `this` (a procedure's getRawInput). */
export function resolvedInput(this: unknown): Promise<unknown> {
  return Promise.resolve(this);
}

interface ZodInput {
  parse(value: unknown): unknown;
  parseAsync(value: unknown): Promise<unknown>;
}

const isZodInput = (schema: unknown): schema is ZodInput =>
  schema instanceof z.ZodType && typeof (schema as Partial<ZodInput>).parseAsync === 'function';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/** A schema's parse, synchronously when it can; a failure is tRPC's input error (400). */
function parseWith(schema: ZodInput, raw: unknown): unknown {
  try {
    return schema.parse(raw);
  } catch (err) {
    // A schema with an async check cannot parse synchronously: the same parse, awaited.
    if (err instanceof z.core.$ZodAsyncError)
      return schema.parseAsync(raw).catch((cause: unknown) => {
        throw new TRPCError({ code: 'BAD_REQUEST', cause });
      });
    throw new TRPCError({ code: 'BAD_REQUEST', cause: err });
  }
}

/** Parsed as tRPC's input middleware parses: schema after schema, objects merged. */
async function parseInputs(schemas: readonly ZodInput[], raw: unknown): Promise<unknown> {
  let input: unknown;
  for (const schema of schemas) {
    const parsed = await parseWith(schema, raw);
    input = isPlainObject(input) && isPlainObject(parsed) ? { ...input, ...parsed } : parsed;
  }
  return input;
}

type DirectCall = (ctx: Context, raw: unknown, path: string) => unknown;

/**
 * The same call without tRPC's generic middleware runner, for a procedure whose chain holds nothing but
 * the dependency guard, its input schemas and its resolver (the public reads: the quote, pricing,
 * articles). What runs is what tRPC would run: the input parsed by its schema (a failure is the same
 * 400), the resolver with the same options, a dependency away turned into the same 503. What is left out
 * is tRPC's object copy and promise at every step of the chain. Answers at once (no promise) when the
 * resolver does. Undefined for a procedure with any other middleware (a role check, an idempotency key,
 * a rate limit): that one runs through tRPC's chain.
 */
export function directCall(procedure: Procedure): DirectCall | undefined {
  const { middlewares = [], inputs = [], resolver, meta, type } = procedure._def;
  const parsers = middlewares.slice(1, -1);
  // A mutation runs through the chain: the guard opens its action-log scope (core/activity).
  const plain =
    type === 'query' &&
    resolver !== undefined &&
    middlewares[0] === (guardDependencies as unknown) &&
    parsers.length === inputs.length &&
    parsers.every((m) => m._type === 'input') &&
    inputs.every(isZodInput);
  if (!plain) return undefined;
  const schemas = inputs as ZodInput[];
  // As the guard sees a failure: tRPC wraps a resolver's plain error, whose cause is then the error itself.
  const guarded = (err: unknown): never => {
    throw knownFailure(err instanceof TRPCError ? (err.cause ?? err) : err) ?? err;
  };
  const run = (ctx: Context, input: unknown, raw: unknown, path: string) => {
    const result = resolver({
      ctx,
      input,
      meta,
      path,
      type,
      getRawInput: resolvedInput.bind(raw),
      signal: undefined,
      batchIndex: 0,
    });
    return result instanceof Promise ? result.catch(guarded) : result;
  };
  const single = schemas.length === 1 ? schemas[0]! : undefined;
  return (ctx, raw, path) => {
    try {
      const input = single ? parseWith(single, raw) : schemas.length ? parseInputs(schemas, raw) : undefined;
      if (input instanceof Promise) return input.then((value) => run(ctx, value, raw, path)).catch(guarded);
      return run(ctx, input, raw, path);
    } catch (err) {
      return guarded(err);
    }
  };
}
