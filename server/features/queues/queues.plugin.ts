import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { Queue } from 'bullmq';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { JOB_NAMES, queueNameFor } from '../../../shared/jobs';
import type { AppDeps } from '../../context';
import { QUEUE_BASE, QUEUE_COOKIE, queueCookieValid } from './queues.service';

/**
 * The BullMQ dashboard at /admin/queues for ADMIN only. The cookie comes from `admin.queues.session`
 * (POST /api/admin/queues/session); every dashboard request checks it and that the user is still an
 * active ADMIN.
 */
export async function registerQueueDashboard(app: FastifyInstance, deps: AppDeps) {
  const connection = deps.settings.redisUrl
    ? new Redis(deps.settings.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true })
    : undefined;
  connection?.on('error', () => {});
  const queues = connection ? JOB_NAMES.map((n) => new Queue(queueNameFor(n), { connection })) : [];
  app.addHook('onClose', async () => {
    await Promise.all(queues.map((q) => q.close()));
    await connection?.quit().catch(() => connection.disconnect());
  });

  await app.register(async (scope) => {
    scope.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
      if (await queueCookieValid(deps.database.db, deps.settings, req.cookies[QUEUE_COOKIE])) return;
      return reply
        .code(401)
        .type('text/html')
        .send(
          '<!doctype html><title>Queues</title><p>Open the queue dashboard from the Admin workspace (AI tab).</p>',
        );
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
