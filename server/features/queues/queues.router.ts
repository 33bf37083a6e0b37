import { openQueueSession, QUEUE_COOKIE, QUEUE_COOKIE_OPTIONS } from '../../../core/queues/queues.service';
import { ZQueueSession } from '../../../shared/schemas/queues';
import { roleProcedure, router } from '../../trpc';

export const queuesRouter = router({
  /** Opens the BullMQ dashboard at /admin/queues: sets its 15-minute HttpOnly cookie on the answer. */
  session: roleProcedure('ADMIN')
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/queues/session',
        summary: 'Opens the queue dashboard: sets a 15-minute HttpOnly cookie scoped to /admin/queues',
      },
    })
    .output(ZQueueSession)
    .mutation(async ({ ctx }) => {
      const { token, session } = await openQueueSession(ctx.db, ctx.user, ctx.deps.settings);
      ctx.setCookie?.(QUEUE_COOKIE, token, QUEUE_COOKIE_OPTIONS);
      return session;
    }),
});
