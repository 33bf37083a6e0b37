import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import fastifyCookie from '@fastify/cookie';
import { Queue } from 'bullmq';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { users } from '../../../drizzle/schema';
import { JOB_NAMES, queueNameFor } from '../../../shared/jobs';
import { signToken, verifyToken } from '../../auth/tokens';
import { type AppDeps, createRequestContext } from '../../context';
import { toHttpError } from '../../errors';

const COOKIE = 'mchanga_queues';
const AUDIENCE = 'mchanga-queues';
const BASE = '/admin/queues';
const TTL_SECONDS = 15 * 60;

/**
 * The BullMQ dashboard at /admin/queues for ADMIN only. A browser tab cannot send the bearer token,
 * so an ADMIN call (POST /api/admin/queues/session) sets a short-lived signed HttpOnly cookie scoped to
 * the dashboard's path; every dashboard request checks it and that the user is still an active ADMIN.
 */
export async function registerQueueDashboard(app: FastifyInstance, deps: AppDeps) {
  await app.register(fastifyCookie);

  app.post('/api/admin/queues/session', async (req, reply) => {
    try {
      const ctx = await createRequestContext(deps, req);
      if (!ctx.user) return reply.code(401).send({ error: 'Please sign in to continue.' });
      if (ctx.user.role !== 'ADMIN')
        return reply.code(403).send({ error: 'You do not have access to this.' });
      const [row] = await deps.database.db
        .select({ v: users.tokenVersion })
        .from(users)
        .where(eq(users.id, ctx.user.id));
      const token = await signToken(
        { userId: ctx.user.id, role: 'ADMIN', version: row?.v ?? 0 },
        deps.config.jwtSecret,
        `${TTL_SECONDS}s`,
        AUDIENCE,
      );
      reply.setCookie(COOKIE, token, {
        path: BASE,
        httpOnly: true,
        sameSite: 'strict',
        secure: req.protocol === 'https',
        maxAge: TTL_SECONDS,
      });
      return { url: BASE, expiresInSeconds: TTL_SECONDS };
    } catch (err) {
      const http = toHttpError(err);
      return reply.code(http.status).send(http.body);
    }
  });

  const connection = deps.config.redisUrl
    ? new Redis(deps.config.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true })
    : undefined;
  connection?.on('error', () => {});
  const queues = connection ? JOB_NAMES.map((n) => new Queue(queueNameFor(n), { connection })) : [];
  app.addHook('onClose', async () => {
    await Promise.all(queues.map((q) => q.close()));
    await connection?.quit().catch(() => connection.disconnect());
  });

  await app.register(async (scope) => {
    scope.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
      const token = req.cookies[COOKIE];
      const verified = token
        ? await verifyToken(token, deps.config.jwtSecret, AUDIENCE)
        : { ok: false as const };
      if (verified.ok) {
        const [row] = await deps.database.db.select().from(users).where(eq(users.id, verified.claims.userId));
        if (row && row.role === 'ADMIN' && !row.disabledAt && row.tokenVersion === verified.claims.version)
          return;
      }
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
      serverAdapter.setBasePath(BASE);
      await scope.register(serverAdapter.registerPlugin(), { prefix: BASE });
    } else {
      scope.get(BASE, async (_req, reply) =>
        reply
          .type('text/html')
          .send(
            '<!doctype html><title>Queues</title><h1>Job queues</h1><p>This server runs in the embedded mode: jobs run inside the server process, without Redis, so there is no queue to inspect. Set REDIS_URL and run <code>npm run worker</code> to use BullMQ and this dashboard.</p>',
          ),
      );
    }
  });
}
