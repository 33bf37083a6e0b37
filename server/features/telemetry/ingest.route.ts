import type { FastifyInstance } from 'fastify';
import { createTelemetryIngest } from '../../../core/telemetry/telemetry.service';
import type { AppDeps } from '../../context';

/**
 * /api/telemetry/osmand — the URL drivers type into Traccar Client: OsmAnd parameters by GET or POST
 * (query or form), or Traccar Client JSON. A raw route because trackers post forms; the rules live in
 * telemetry.service (400 only when no device is named; unknown devices 404, then 429 per address).
 */
export function registerTelemetryIngest(app: FastifyInstance, deps: AppDeps) {
  const ingest = createTelemetryIngest({ db: deps.database.db, jobs: deps.jobs, log: deps.log });
  app.addHook('onClose', async () => ingest.flush());

  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    scope.route({
      method: ['GET', 'POST'],
      url: '/api/telemetry/osmand',
      bodyLimit: 512 * 1024,
      handler: async (req, reply) => {
        const now = deps.now?.() ?? new Date();
        const query = (req.query ?? {}) as Record<string, unknown>;
        return reply.code(200).send(await ingest.accept(query, req.body, now, req.ip, req.log));
      },
    });
  });
}
