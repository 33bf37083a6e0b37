import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { TRPCError } from '@trpc/server';
import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyReply, type FastifyServerOptions, LogController } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { pricingInfo } from '../core/pricing/pricing.service';
import { trackOrder } from '../core/tracking/tracking.service';
import { repeatedLogger } from '../shared/logger';
import type { Settings } from '../shared/settings';
import type { AppDeps } from './context';
import { createRequestContext } from './context';
import { toHttpError } from './errors';
import { registerStatementRoutes } from './features/accounts/statement.route';
import { registerDocumentRoutes } from './features/documents/documents.route';
import { registerMessagingRoutes, registerProofPhoto } from './features/messaging/messaging.routes';
import { registerMpesaCallbacks } from './features/mpesa/mpesa.callbacks';
import { registerQueueDashboard } from './features/queues/queues.plugin';
import { registerTelemetryIngest } from './features/telemetry/ingest.route';
import { registerGuestOrderForm } from './guest-order-form';
import { registerLandingPage, renderStaffShells, serverRender } from './landing-html';
import { lazyChildLogger } from './logging';
import { registerMetrics } from './metrics';
import { buildOpenApiDocument } from './openapi';
import { registerRest } from './rest';
import {
  FIRST_DATA_ROUTES,
  FIRST_DATA_SCRIPT_SRC,
  type RenderPage,
  registerRoutePages,
  STAFF_SHELL_SCRIPT_SRC,
} from './route-html';
import { type AppRouter, appRouter } from './router';
import { screenPage } from './screen-html';
import { TRACK_ROUTE, trackingPage } from './track-html';
import { IMAGE_BODY_LIMIT, TRPC_MAX_BATCH } from './trpc';
import { registerUploads } from './uploads';

export interface ApiRoute {
  method: string;
  /** Fastify syntax (`:id`). */
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    apiRoutes: ApiRoute[];
  }
}

export interface BuildAppOptions {
  /** Directory of the built client (vite build output); served with SPA fallback when present. */
  clientDir?: string;
  logger?: FastifyServerOptions['logger'];
}

function tileOrigin(url: string): string | undefined {
  try {
    return new URL(url.replace(/\{[a-z]\}/g, '0')).origin;
  } catch {
    return undefined;
  }
}

/** Fastify's trustProxy: a hop count trusts that many proxies nearest the server (as Fastify does for numbers). */
function trustProxyOption(value: Settings['trustProxy']) {
  return typeof value === 'number' ? (_address: string, hop: number) => hop < value : value;
}

function helmetOptions(mapTileUrl: string): HelmetOptions {
  const tiles = tileOrigin(mapTileUrl);
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The staff screens' inline scripts (first data, the screen's top), allowed by their hashes
        // (server/route-html.ts).
        scriptSrc: ["'self'", FIRST_DATA_SCRIPT_SRC, STAFF_SHELL_SCRIPT_SRC],
        // React and maplibre set inline styles.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...(tiles ? [tiles] : [])],
        connectSrc: ["'self'", ...(tiles ? [tiles] : [])],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // Sent per request, only on requests that arrived over https (directly or through a trusted proxy).
    strictTransportSecurity: false,
  };
}

/**
 * The headers of every /api and /trpc answer. They are JSON (or an uploaded picture), never a page, so
 * nothing may load from them or frame them: `default-src 'none'` is stricter than the app's policy, and
 * the headers that only govern documents (opener policy, DNS prefetch, download options, XSS filter,
 * Flash policies, origin-keyed agent clusters) are left off, as in OWASP's REST security cheat sheet.
 * Eleven headers down to five: about 3 µs less per call on the quote (bench:quote).
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

/** An address of the API (REST or tRPC), with or without its query: answered with JSON, never a page. */
const isApiPath = (url: string) => /^\/(api|trpc)(\/|\?|$)/.test(url);

/** The headers helmet sets, captured once from its middleware run against a recording response. */
export function securityHeaders(mapTileUrl: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader() {},
  };
  helmet(helmetOptions(mapTileUrl))(
    {} as Parameters<ReturnType<typeof helmet>>[0],
    res as unknown as Parameters<ReturnType<typeof helmet>>[1],
    (err?: unknown) => {
      if (err) throw err;
    },
  );
  return headers;
}

export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}) {
  const app = Fastify({
    logger: options.logger ?? false,
    // Errors are logged by the error handler; a line per request is a cost a busy server need not pay.
    logController: new LogController({ disableRequestLogging: true }),
    // req.log is made on first use only (server/logging.ts).
    childLoggerFactory: lazyChildLogger,
    bodyLimit: deps.settings.bodyLimit,
    trustProxy: trustProxyOption(deps.settings.trustProxy),
    routerOptions: { maxParamLength: 5000 },
    // The router's own refusals (a path too long, a malformed address) answer like every other error.
    frameworkErrors: (error, _req, reply) => {
      const http = toHttpError(error);
      // The raw reply's generic types know no status codes before routes exist.
      void (reply as unknown as FastifyReply).code(http.status).headers(http.headers).send(http.body);
    },
  });

  // Every /api route as registered, so tests can prove each one is documented and access-checked.
  const apiRoutes: ApiRoute[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    for (const method of [route.method].flat())
      if (method !== 'HEAD') apiRoutes.push({ method, url: route.url });
  });
  app.decorate('apiRoutes', apiRoutes);

  // Helmet's answer is the same for every request (no nonces): computed once, set in one hook. The API's
  // answers are data, never a document: they carry the short, stricter set (API_SECURITY_HEADERS).
  const security = securityHeaders(deps.settings.mapTileUrl);
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(isApiPath(req.url) ? API_SECURITY_HEADERS : security);
    if (req.protocol === 'https')
      reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    done();
  });

  // Before any route, so that procedures (over tRPC and REST) and the queue dashboard share its hooks.
  await app.register(fastifyCookie);
  // Answers of 1 KB and more go out brotli- or gzip-compressed when the client accepts it (smaller ones
  // as they are); the build's precompressed files and the pre-rendered landing page carry their own
  // encoding and pass through. Request bodies are not decompressed: bodyLimit counts what arrives.
  await app.register(fastifyCompress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    globalDecompression: false,
  });

  // A dependency down fails every request the same way: one line per 30 s with a count, not one each.
  const dependencyDown = repeatedLogger(app.log);
  app.setErrorHandler((err, req, reply) => {
    const http = toHttpError(err);
    if (http.status === 503)
      dependencyDown('error', 'request:dependency-down', { err }, 'requests failed: a dependency is down');
    else if (http.status >= 500) req.log.error({ err }, 'request failed');
    return reply.code(http.status).headers(http.headers).send(http.body);
  });

  // Before the routes, so its timing hook sees every one of them.
  registerMetrics(app, deps);

  // The client sends photos as data URLs over tRPC too (one transport), so /trpc takes the image limit.
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.bodyLimit = IMAGE_BODY_LIMIT;
    });
    await scope.register(fastifyTRPCPlugin, {
      prefix: '/trpc',
      trpcOptions: {
        router: appRouter,
        // One request may not hold a pooled connection for long: a batch carries at most 10 calls (400 above).
        maxBatchSize: TRPC_MAX_BATCH,
        // Resolving the signed-in user reads the database: a database away is a 503 here too.
        createContext: ({ req, res }) =>
          createRequestContext(deps, req, res).catch((err) => {
            const http = toHttpError(err);
            if (http.status === 503)
              throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: http.body.error, cause: err });
            throw err;
          }),
        onError: ({ error, path }) => {
          if (error.code === 'INTERNAL_SERVER_ERROR') app.log.error({ err: error, path }, 'procedure failed');
        },
      } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
    });
  });

  registerRest(app, deps);
  registerGuestOrderForm(app, deps);
  registerUploads(app, deps);
  registerTelemetryIngest(app, deps);
  registerMpesaCallbacks(app, deps);
  registerMessagingRoutes(app, deps);
  registerProofPhoto(app, deps);
  registerDocumentRoutes(app, deps);
  registerStatementRoutes(app, deps);
  await registerQueueDashboard(app, deps);

  const openapi = buildOpenApiDocument(deps.settings.version);
  app.get('/api/openapi.json', async () => openapi);

  const clientDir = options.clientDir;
  const hasClient = clientDir !== undefined && existsSync(join(clientDir, 'index.html'));
  let screensRouted = false;
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      // The build's .br and .gz files (vite-plugin-compression2), picked by Accept-Encoding, with
      // `content-encoding` and `vary: accept-encoding`; the plain file when none fits.
      preCompressed: true,
      setHeaders(res, path) {
        // Vite fingerprints everything under assets/; index.html must always be revalidated.
        res.header(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
    // `/` pre-rendered with the live pricing (server/landing-html.ts).
    await registerLandingPage(app, clientDir, () => pricingInfo(deps.database, deps.settings));
    // Every other screen: index.html with its own chunks preloaded, a staff screen's with its top
    // (server/route-html.ts).
    const shells = await renderStaffShells(clientDir, {
      activityRetentionDays: deps.settings.activityRetentionDays,
    }).catch((err: unknown) => {
      app.log.warn({ err }, 'staff screens not pre-rendered: they render their top themselves');
      return {};
    });
    // A signed-in screen with its data, for a request with the screen cookie (server/screen-html.ts), and
    // a tracking link's page with its order in it (server/track-html.ts).
    const renderer = await serverRender(clientDir).catch(() => null);
    const rendered: Record<string, RenderPage> = {};
    if (renderer) {
      const screens = screenPage(renderer, deps);
      for (const route of FIRST_DATA_ROUTES) rendered[route] = screens;
      rendered[TRACK_ROUTE] = trackingPage(renderer, (req, token) =>
        trackOrder(
          { db: deps.database.db, settings: deps.settings, limiter: deps.limiters.trackPerIp },
          req.ip,
          token,
          deps.now?.() ?? new Date(),
        ),
      );
    }
    screensRouted = registerRoutePages(app, clientDir, shells, rendered);
  }

  app.setNotFoundHandler((req, reply) => {
    const isApi = isApiPath(req.url);
    if (!isApi && hasClient && (req.method === 'GET' || req.method === 'HEAD')) {
      // Every screen has its own route: anything else is not a page of ours. A person still gets the app
      // (its 'Page not found' screen, with the way home), a crawler or a probe the 404 it should see; a
      // path that names a file (/wp-login.php, /.env) gets no page at all.
      if (screensRouted && /\/[^/]*\.[^/]*$/.test(req.url.split('?')[0]!))
        return reply.code(404).type('text/plain; charset=utf-8').send('Not found.');
      return reply
        .code(screensRouted ? 404 : 200)
        .header('cache-control', 'no-cache')
        .type('text/html')
        .sendFile('index.html');
    }
    return reply.code(404).send({ error: isApi ? 'No such API endpoint.' : 'Not found.' });
  });

  return app;
}
