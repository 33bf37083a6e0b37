import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from './context';
import { createRequestContext } from './context';
import { toHttpError } from './errors';
import { type AppRouter, appRouter, createCaller } from './router';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RestRoute {
  method: Method;
  /** Fastify path syntax; `:id` segments are merged into the input. */
  path: string;
  /** The tRPC procedure path this call runs, e.g. `auth.login`. */
  procedure: string;
  summary: string;
  /** Build the procedure input; default: the query (GET) or the JSON body, plus path params. */
  input?: (req: FastifyRequest) => unknown;
  /** Success status: a number, or chosen from the result (health answers 503 when the database is down). */
  status?: number | ((result: unknown) => number);
}

/** One row per spec call. Validation, roles and errors run once, in the procedure. */
export const REST_ROUTES: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/health',
    procedure: 'system.health',
    summary: 'Liveness of the database and the job transport',
    status: (r) => ((r as { database: { ok: boolean } }).database.ok ? 200 : 503),
  },
  { method: 'POST', path: '/api/auth/register', procedure: 'auth.register', summary: 'Register a customer account', status: 201 },
  { method: 'POST', path: '/api/auth/login', procedure: 'auth.login', summary: 'Sign in' },
  { method: 'GET', path: '/api/auth/me', procedure: 'auth.me', summary: 'The signed-in user' },
  { method: 'POST', path: '/api/auth/logout-all', procedure: 'auth.logoutAll', summary: 'Sign out on every device' },
  { method: 'POST', path: '/api/auth/password', procedure: 'auth.changePassword', summary: 'Change password (revokes other sessions)' },
  { method: 'GET', path: '/api/admin/users', procedure: 'admin.users.list', summary: 'Staff accounts' },
  { method: 'POST', path: '/api/admin/users', procedure: 'admin.users.create', summary: 'Create an OPS, DRIVER or FUEL account', status: 201 },
  { method: 'POST', path: '/api/admin/users/:id/disable', procedure: 'admin.users.disable', summary: 'Disable a staff account' },
  { method: 'POST', path: '/api/admin/users/:id/enable', procedure: 'admin.users.enable', summary: 'Re-enable a staff account' },
];

function defaultInput(req: FastifyRequest, method: Method): unknown {
  const params = (req.params ?? {}) as Record<string, string>;
  const source = method === 'GET' || method === 'DELETE' ? req.query : req.body;
  if (source === undefined || source === null) return Object.keys(params).length ? { ...params } : undefined;
  if (typeof source !== 'object' || Array.isArray(source)) return source;
  return { ...(source as Record<string, unknown>), ...params };
}

type AnyFn = (input: unknown) => Promise<unknown>;

export function resolveProcedure(caller: ReturnType<typeof createCaller>, path: string): AnyFn {
  let node: unknown = caller;
  for (const key of path.split('.')) node = (node as Record<string, unknown>)[key];
  if (typeof node !== 'function') throw new Error(`REST route points at unknown procedure ${path}`);
  return node as AnyFn;
}

export function assertRestTable(router: AppRouter = appRouter) {
  const known = new Set(Object.keys(router._def.procedures));
  for (const route of REST_ROUTES) {
    if (!known.has(route.procedure)) throw new Error(`REST route ${route.method} ${route.path} → unknown ${route.procedure}`);
  }
}

export function registerRest(app: FastifyInstance, deps: AppDeps) {
  assertRestTable();
  for (const route of REST_ROUTES) {
    app.route({
      method: route.method,
      url: route.path,
      handler: async (req, reply) => {
        try {
          const ctx = await createRequestContext(deps, req);
          const call = resolveProcedure(createCaller(ctx), route.procedure);
          const result = await call(route.input ? route.input(req) : defaultInput(req, route.method));
          const status = typeof route.status === 'function' ? route.status(result) : (route.status ?? 200);
          return reply.code(status).send(result ?? null);
        } catch (err) {
          const http = toHttpError(err);
          if (http.status >= 500) req.log.error({ err, route: route.path }, 'request failed');
          return reply.code(http.status).headers(http.headers).send(http.body);
        }
      },
    });
  }
}
