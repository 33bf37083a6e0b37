import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from './context';
import { createRequestContext } from './context';
import { directCall, type Procedure, resolvedInput } from './direct-call';
import { type AppRouter, appRouter, type createCaller } from './router';
import type { Meta, RestMeta } from './trpc';

export interface RestRoute extends RestMeta {
  /** The tRPC procedure path this call runs, e.g. `auth.login`. */
  procedure: string;
  roles: Meta['roles'];
  /** Path parameter names (`:id` → `id`). */
  params: string[];
}

type ProcedureDefs = Record<string, Procedure>;

export function procedureDefs(router: AppRouter = appRouter): ProcedureDefs {
  return router._def.procedures as unknown as ProcedureDefs;
}

/** Every REST call, generated from the procedures' `meta.rest`: validation, roles and errors run once, on the procedure. */
export function restRoutes(router: AppRouter = appRouter): RestRoute[] {
  const routes: RestRoute[] = [];
  const seen = new Set<string>();
  for (const [procedure, { _def }] of Object.entries(procedureDefs(router))) {
    const rest = _def.meta?.rest;
    if (!rest) continue;
    const key = `${rest.method} ${rest.path}`;
    if (seen.has(key)) throw new Error(`Two procedures claim ${key}`);
    seen.add(key);
    routes.push({
      ...rest,
      procedure,
      roles: _def.meta?.roles,
      params: [...rest.path.matchAll(/:(\w+)/g)].map((m) => m[1]!),
    });
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

function inputOf(req: FastifyRequest, route: RestRoute): unknown {
  const params = (req.params ?? {}) as Record<string, string>;
  const source = route.method === 'GET' || route.method === 'DELETE' ? req.query : req.body;
  if (source === undefined || source === null) return route.params.length ? { ...params } : undefined;
  if (typeof source !== 'object' || Array.isArray(source)) return source;
  // Path parameters win over anything of the same name in the body or query.
  return { ...(source as Record<string, unknown>), ...params };
}

type AnyFn = (input: unknown) => Promise<unknown>;

export function resolveProcedure(caller: ReturnType<typeof createCaller>, path: string): AnyFn {
  let node: unknown = caller;
  for (const key of path.split('.')) node = (node as Record<string, unknown>)[key];
  if (typeof node !== 'function') throw new Error(`REST route points at unknown procedure ${path}`);
  return node as AnyFn;
}

// Strong enough to tell answers apart, and cheap: the same answer object is hashed once.
const etags = new WeakMap<object, { body: string; etag: string }>();

function etagged(result: unknown) {
  const memo = typeof result === 'object' && result !== null ? etags.get(result) : undefined;
  if (memo) return memo;
  const body = JSON.stringify(result ?? null);
  // Weak: the same JSON may go out gzip-, brotli- or un-encoded.
  const entry = { body, etag: `W/"${createHash('sha1').update(body).digest('base64url')}"` };
  if (typeof result === 'object' && result !== null) etags.set(result, entry);
  return entry;
}

function matches(ifNoneMatch: string | undefined, etag: string) {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = etag.slice(2);
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

/** A cacheable GET: its ETag, and 304 without a body when the client already holds this answer. */
function sendEtagged(req: FastifyRequest, reply: FastifyReply, status: number, result: unknown) {
  const { body, etag } = etagged(result);
  reply.header('etag', etag).header('cache-control', 'no-cache');
  if (status === 200 && matches(req.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * Registers every generated route; errors go to the app's one error handler. Each route holds its
 * procedure and calls it as tRPC's caller would (same middlewares, validation and errors), without
 * building a caller proxy per request; a procedure with no middleware of its own runs directly
 * (directCall).
 */
export function registerRest(app: FastifyInstance, deps: AppDeps) {
  const procedures = procedureDefs();
  for (const route of restRoutes()) {
    const procedure = procedures[route.procedure];
    if (!procedure) throw new Error(`REST route points at unknown procedure ${route.procedure}`);
    const { type } = procedure._def;
    const direct = directCall(procedure);
    app.route({
      method: route.method,
      url: route.path,
      ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
      handler: async (req, reply) => {
        const ctx = await createRequestContext(deps, req, reply);
        const input = inputOf(req, route);
        const answer = direct
          ? direct(ctx, input, route.procedure)
          : procedure({
              ctx,
              path: route.procedure,
              type,
              // Bound, not a closure: a closure made per request costs a name under tsx (keepNames).
              getRawInput: resolvedInput.bind(input),
              signal: undefined,
              batchIndex: 0,
            });
        const result = answer instanceof Promise ? await answer : answer;
        const status = route.statusOf ? route.statusOf(result) : (route.status ?? 200);
        if (route.etag) return sendEtagged(req, reply, status, result);
        return reply.code(status).send(result ?? null);
      },
    });
  }
}
