import { existsSync } from 'node:fs';
import { join } from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { AppDeps } from './context';
import { createRequestContext } from './context';
import { toHttpError } from './errors';
import { registerQueueDashboard } from './features/queues/queues.plugin';
import { registerTelemetryIngest } from './features/telemetry/ingest.route';
import { buildOpenApiDocument } from './openapi';
import { registerRest } from './rest';
import { type AppRouter, appRouter } from './router';
import { registerUploads } from './uploads';

export interface BuildAppOptions {
  /** Directory of the built client (vite build output); served with SPA fallback when present. */
  clientDir?: string;
  logger?: FastifyServerOptions['logger'];
  version?: string;
}

function tileOrigin(url: string): string | undefined {
  try {
    return new URL(url.replace(/\{[a-z]\}/g, '0')).origin;
  } catch {
    return undefined;
  }
}

export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}) {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: deps.config.bodyLimit,
    trustProxy: deps.config.trustProxy,
    routerOptions: { maxParamLength: 5000 },
  });

  const tiles = tileOrigin(deps.config.mapTileUrl);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
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
    strictTransportSecurity: deps.config.mode === 'services' ? undefined : false,
  });

  app.setErrorHandler((err, req, reply) => {
    const http = toHttpError(err);
    if (http.status >= 500) req.log.error({ err }, 'request failed');
    return reply.code(http.status).headers(http.headers).send(http.body);
  });

  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: ({ req }) => createRequestContext(deps, req),
      onError: ({ error, path }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') app.log.error({ err: error, path }, 'procedure failed');
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });

  registerRest(app, deps);
  registerUploads(app, deps);
  registerTelemetryIngest(app, deps);
  await registerQueueDashboard(app, deps);

  const openapi = buildOpenApiDocument(options.version ?? '0.0.0');
  app.get('/api/openapi.json', async () => openapi);

  const clientDir = options.clientDir;
  const hasClient = clientDir !== undefined && existsSync(join(clientDir, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      setHeaders(res, path) {
        // Vite fingerprints everything under assets/; index.html must always be revalidated.
        res.header(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    const isApi = url.startsWith('/api/') || url === '/api' || url.startsWith('/trpc');
    if (!isApi && hasClient && (req.method === 'GET' || req.method === 'HEAD')) {
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    }
    return reply.code(404).send({ error: isApi ? 'No such API endpoint.' : 'Not found.' });
  });

  return app;
}
