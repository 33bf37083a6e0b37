import { notificationTargets, setTelegramChat } from '../../../core/notifications/notifications.service';
import {
  ZNotificationRecipient,
  ZNotificationTargets,
  ZNotificationTargetUpdate,
} from '../../../shared/schemas/notifications';
import { roleProcedure, router } from '../../trpc';

const adminProcedure = roleProcedure('ADMIN');

/** Telegram alert routing: which ADMIN and OPS users get alerts, in which chat. */
export const notificationsRouter = router({
  list: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/notification-targets',
        summary: 'ADMIN and OPS alert recipients and whether the Telegram bot is configured',
      },
    })
    .output(ZNotificationTargets)
    .query(({ ctx }) => notificationTargets(ctx.db, ctx.deps.settings)),

  update: adminProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/admin/notification-targets/:id',
        summary: "Set or clear a recipient's Telegram chat id",
        example: { id: '3', telegramChatId: '-1001234567890' },
      },
    })
    .input(ZNotificationTargetUpdate)
    .output(ZNotificationRecipient)
    .mutation(({ ctx, input }) => setTelegramChat(ctx.db, input, ctx.now())),
});
