import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { Queue } from 'bullmq';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { QUEUE_BASE, QUEUE_COOKIE, queueCookieValid } from '../../../core/queues/queues.service';
import { JOB_NAMES, queueNameFor } from '../../../shared/jobs';
import { failureKind, repeatedLogger } from '../../../shared/logger';
import type { AppDeps } from '../../context';

/**
 * The BullMQ dashboard at /admin/queues for ADMIN only. The cookie comes from `admin.queues.session`
 * (POST /api/admin/queues/session); every dashboard request checks it and that the user is still an
 * active ADMIN.
 */
export async function registerQueueDashboard(app: FastifyInstance, deps: AppDeps) {
  const connection = deps.settings.redisUrl
    ? new Redis(deps.settings.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true })
    : undefined;
  // The dashboard's queues fail on every retry while Redis is down: one line per kind of failure per 30 s
  // (a queue without an 'error' listener prints a raw stack each time).
  const repeated = repeatedLogger(deps.log);
  const redisError = (err: Error) =>
    repeated('warn', failureKind('queue-dashboard', err), { err }, 'queue dashboard: Redis unreachable');
  connection?.on('error', redisError);
  const queues = connection ? JOB_NAMES.map((n) => new Queue(queueNameFor(n), { connection })) : [];
  for (const q of queues) q.on('error', redisError);
  app.addHook('onClose', async () => {
    await Promise.all(queues.map((q) => q.close()));
    await connection?.quit().catch(() => connection.disconnect());
  });

  await app.register(async (scope) => {
    scope.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
      if (!(await queueCookieValid(deps.database.db, deps.settings, req.cookies[QUEUE_COOKIE])))
        return reply
          .code(401)
          .type('text/html')
          .send(
            '<!doctype html><title>Queues</title><p>Open the queue dashboard from the Admin workspace (AI tab).</p>',
          );
      const refusal = dashboardRefusal(req, deps.settings.publicUrl);
      if (refusal) return reply.code(403).send({ error: refusal });
    });
    if (queues.length > 0) {
      const serverAdapter = new FastifyAdapter();
      createBullBoard({ queues: queues.map((q) => new BullMQAdapter(q)), serverAdapter });
      serverAdapter.setBasePath(QUEUE_BASE);
      await scope.register(serverAdapter.registerPlugin(), { prefix: QUEUE_BASE });
    } else {
      scope.get(QUEUE_BASE, async (_req, reply) =>
        reply
          .type('text/html')
          .send(
            '<!doctype html><title>Queues</title><h1>Job queues</h1><p>This server runs in the embedded mode: jobs run inside the server process, without Redis, so there is no queue to inspect. Set REDIS_URL and run <code>npm run worker</code> to use BullMQ and this dashboard.</p>',
          ),
      );
    }
  });
}

/**
 * What an ADMIN may change from the dashboard: retry, promote and clean (a queue's jobs of a state, or one
 * job). Everything else that changes state — adding a job of any name and payload, pause and resume,
 * emptying or obliterating a queue, editing a job's data or a schedule — is refused: jobs are made by
 * the app, schedules by the worker.
 */
const ALLOWED_CHANGES: readonly RegExp[] = [
  /^\/api\/queues\/[^/]+\/(retry|clean)\/[^/]+$/,
  /^\/api\/queues\/[^/]+\/promote$/,
  /^\/api\/queues\/[^/]+\/[^/]+\/(retry|clean|promote)$/,
];

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Why a dashboard request that changes state is refused, or undefined. It must come from the app's own
 * origin (its `Origin` header, or `Sec-Fetch-Site: same-origin` when a browser sent no Origin): the
 * SameSite cookie alone lets a page on another port of the same host (same site) send it. And it must be
 * one of the allowed changes.
 */
export function dashboardRefusal(
  req: Pick<FastifyRequest, 'method' | 'url' | 'headers' | 'protocol' | 'host'>,
  publicUrl: string | undefined,
): string | undefined {
  if (SAFE_METHODS.has(req.method)) return undefined;
  const own = new Set([`${req.protocol}://${req.host}`]);
  if (publicUrl) own.add(new URL(publicUrl).origin);
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  const sameOrigin = origin !== undefined ? own.has(origin) : site === 'same-origin';
  if (!sameOrigin) return 'The queue dashboard takes changes only from its own pages.';
  const path = (req.url.split('?')[0] ?? '').slice(QUEUE_BASE.length);
  if (!ALLOWED_CHANGES.some((allowed) => allowed.test(path)))
    return 'The queue dashboard allows retrying, promoting and cleaning jobs only.';
  return undefined;
}
