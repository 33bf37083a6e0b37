import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appError } from '../core/errors';
import { MESSAGES } from '../shared/constants';
import { JobTransportUnavailableError } from '../shared/jobs';
import type { Context } from './context';
import { directCall, type Procedure, resolvedInput } from './direct-call';
import { GENERIC_SERVER_ERROR, toHttpError } from './errors';
import { idempotent } from './idempotency';
import { procedureDefs, restRoutes } from './rest';
import { PUBLIC_PROCEDURES, protectedProcedure, publicProcedure, roleProcedure, router } from './trpc';

const dbAway = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const ZSite = z.object({
  site: z.string().trim().min(1, 'Enter the delivery site.'),
  trucks: z.number().default(1),
});

/** Procedures built from the real builders, one per way a call can end. */
const testRouter = router({
  echo: publicProcedure.input(ZSite).query(({ input }) => ({ ...input, at: 'sync' })),
  echoAsync: publicProcedure.input(ZSite).query(async ({ input }) => ({ ...input, at: 'async' })),
  noInput: publicProcedure.query(({ input, path }) => ({ input: input ?? 'none', path })),
  merged: publicProcedure
    .input(z.object({ a: z.number() }))
    .input(z.object({ b: z.string().default('b') }))
    .query(({ input }) => input),
  asyncCheck: publicProcedure
    .input(z.object({ code: z.string() }).refine(async (v) => v.code === 'ok', { message: 'Wrong code.' }))
    .query(({ input }) => input),
  plainError: publicProcedure.query(() => {
    throw new Error('select * from secrets failed');
  }),
  dbAwaySync: publicProcedure.query(() => {
    throw dbAway();
  }),
  dbAwayAsync: publicProcedure.input(ZSite).query(async () => {
    throw Object.assign(new Error('write failed'), { cause: dbAway() });
  }),
  queueAway: publicProcedure.query(async () => {
    throw new JobTransportUnavailableError(new Error('CLIENT PAUSE'));
  }),
  notFound: publicProcedure.input(ZSite).query(() => {
    throw appError('NOT_FOUND', 'Order not found.', { id: 7 });
  }),
  written: publicProcedure.input(ZSite).mutation(({ input }) => input),
  signedIn: protectedProcedure.query(() => 'x'),
  ops: roleProcedure('ADMIN', 'OPS').query(() => 'x'),
  keyed: publicProcedure
    .input(ZSite)
    .use(idempotent)
    .mutation(() => 'x'),
});

const procedures = testRouter._def.procedures as unknown as Record<string, Procedure>;
const ctx = { user: null, authProblem: null } as unknown as Context;

type Outcome = { ok: true; value: unknown } | { ok: false; status: number; body: unknown };

async function outcome(run: () => unknown): Promise<Outcome> {
  try {
    return { ok: true, value: await run() };
  } catch (err) {
    const http = toHttpError(err);
    return { ok: false, status: http.status, body: http.body };
  }
}

/** The same call both ways: tRPC's own chain, and the direct call. */
async function both(name: string, raw: unknown) {
  const procedure = procedures[name]!;
  const direct = directCall(procedure);
  if (!direct) throw new Error(`${name} has no direct call`);
  const viaTrpc = await outcome(() =>
    procedure({
      ctx,
      path: name,
      type: procedure._def.type,
      getRawInput: resolvedInput.bind(raw),
      signal: undefined,
      batchIndex: 0,
    }),
  );
  const viaDirect = await outcome(() => direct(ctx, raw, name));
  return { viaTrpc, viaDirect };
}

describe('directCall answers exactly as tRPC’s chain does', () => {
  const cases: Array<{ name: string; raw: unknown; expected: Outcome }> = [
    {
      name: 'echo',
      raw: { site: ' Ruiru ' },
      expected: { ok: true, value: { site: 'Ruiru', trucks: 1, at: 'sync' } },
    },
    {
      name: 'echoAsync',
      raw: { site: 'Juja', trucks: 3 },
      expected: { ok: true, value: { site: 'Juja', trucks: 3, at: 'async' } },
    },
    {
      name: 'echo',
      raw: { site: '   ' },
      expected: { ok: false, status: 400, body: { error: 'Enter the delivery site.' } },
    },
    {
      name: 'echo',
      raw: undefined,
      expected: { ok: false, status: 400, body: { error: expect.any(String) } },
    },
    {
      name: 'echo',
      raw: 'not an object',
      expected: { ok: false, status: 400, body: { error: expect.any(String) } },
    },
    {
      name: 'noInput',
      raw: undefined,
      expected: { ok: true, value: { input: 'none', path: 'noInput' } },
    },
    { name: 'merged', raw: { a: 1 }, expected: { ok: true, value: { a: 1, b: 'b' } } },
    {
      name: 'merged',
      raw: { a: 'one' },
      expected: { ok: false, status: 400, body: { error: expect.stringMatching(/^a: /) } },
    },
    { name: 'asyncCheck', raw: { code: 'ok' }, expected: { ok: true, value: { code: 'ok' } } },
    {
      name: 'asyncCheck',
      raw: { code: 'no' },
      expected: { ok: false, status: 400, body: { error: 'Wrong code.' } },
    },
    {
      name: 'plainError',
      raw: undefined,
      expected: { ok: false, status: 500, body: { error: GENERIC_SERVER_ERROR } },
    },
    {
      name: 'dbAwaySync',
      raw: undefined,
      expected: { ok: false, status: 503, body: { error: MESSAGES.databaseUnavailable } },
    },
    {
      name: 'dbAwayAsync',
      raw: { site: 'Ruiru' },
      expected: { ok: false, status: 503, body: { error: MESSAGES.databaseUnavailable } },
    },
    {
      name: 'queueAway',
      raw: undefined,
      expected: { ok: false, status: 503, body: { error: new JobTransportUnavailableError().message } },
    },
    {
      name: 'notFound',
      raw: { site: 'Ruiru' },
      expected: { ok: false, status: 404, body: { error: 'Order not found.', id: 7 } },
    },
  ];

  it.each(cases)('$name($raw)', async ({ name, raw, expected }) => {
    const { viaTrpc, viaDirect } = await both(name, raw);
    expect(viaTrpc).toEqual(expected);
    expect(viaDirect).toEqual(viaTrpc);
  });

  it('answers at once, without a promise, when the resolver does', () => {
    const direct = directCall(procedures.echo!)!;
    expect(direct(ctx, { site: 'Ruiru' }, 'echo')).toEqual({ site: 'Ruiru', trucks: 1, at: 'sync' });
  });
});

describe('which procedures run directly', () => {
  it('never a mutation: it runs through the chain, whose guard opens its action log scope', () => {
    expect(directCall(procedures.written!)).toBeUndefined();
  });

  it('never one with a middleware of its own: a sign-in, a role check, an idempotency key', () => {
    for (const name of ['signedIn', 'ops', 'keyed'])
      expect(directCall(procedures[name]!), name).toBeUndefined();
  });

  it('in the app: only public procedures, and the public reads among them', () => {
    const defs = procedureDefs();
    const direct = restRoutes()
      .filter((route) => directCall(defs[route.procedure]!))
      .map((route) => route.procedure);
    expect(direct).toEqual(expect.arrayContaining(['pricing.quote', 'pricing.get', 'articles.list']));
    for (const name of direct) expect(PUBLIC_PROCEDURES).toContain(name);
  });
});
