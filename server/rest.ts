import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from './context';
import { createRequestContext } from './context';
import { toHttpError } from './errors';
import { adminUsersRest } from './features/admin/users.rest';
import { adminOrdersRest } from './features/admin-orders/admin-orders.rest';
import { articlesRest } from './features/articles/articles.rest';
import { auditRest } from './features/audit/audit.rest';
import { authRest } from './features/auth/auth.rest';
import { chatbotRest } from './features/chatbot/chatbot.rest';
import { costsRest } from './features/costs/costs.rest';
import { dashboardRest } from './features/dashboard/dashboard.rest';
import { driverDashboardRest } from './features/driver-dashboard/driver-dashboard.rest';
import { driversRest } from './features/drivers/drivers.rest';
import { financeRest } from './features/finance/finance.rest';
import { fuelRest } from './features/fuel/fuel.rest';
import { insightsRest } from './features/insights/insights.rest';
import { notificationsRest } from './features/notifications/notifications.rest';
import { ordersRest } from './features/orders/orders.rest';
import { pricingRest } from './features/pricing/pricing.rest';
import { stockRest } from './features/stock/stock.rest';
import { systemRest } from './features/system/system.rest';
import { telemetryRest } from './features/telemetry/telemetry.rest';
import { trucksRest } from './features/trucks/trucks.rest';
import type { Method, RestRoute } from './rest-types';
import { type AppRouter, appRouter, createCaller } from './router';

export type { RestRoute } from './rest-types';

/** Every spec call, one row each, gathered from the domains. Validation, roles and errors run once, in the procedure. */
export const REST_ROUTES: RestRoute[] = [
  ...systemRest,
  ...authRest,
  ...adminUsersRest,
  ...pricingRest,
  ...ordersRest,
  ...adminOrdersRest,
  ...trucksRest,
  ...driversRest,
  ...stockRest,
  ...dashboardRest,
  ...costsRest,
  ...fuelRest,
  ...auditRest,
  ...financeRest,
  ...telemetryRest,
  ...driverDashboardRest,
  ...articlesRest,
  ...chatbotRest,
  ...notificationsRest,
  ...insightsRest,
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
    if (!known.has(route.procedure))
      throw new Error(`REST route ${route.method} ${route.path} → unknown ${route.procedure}`);
  }
}

export function registerRest(app: FastifyInstance, deps: AppDeps) {
  assertRestTable();
  for (const route of REST_ROUTES) {
    app.route({
      method: route.method,
      url: route.path,
      ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
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
