import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { users } from '../../../drizzle/schema';
import {
  ZNotificationRecipient,
  ZNotificationTargets,
  ZNotificationTargetUpdate,
} from '../../../shared/schemas/notifications';
import { appError } from '../../errors';
import { roleProcedure, router } from '../../trpc';

const adminProcedure = roleProcedure('ADMIN');
const RECIPIENT_ROLES = ['ADMIN', 'OPS'] as const;

export const botConfigured = () => Boolean(process.env.TELEGRAM_BOT_TOKEN);

/** Telegram alert routing: which ADMIN and OPS users get alerts, in which chat. */
export const notificationsRouter = router({
  list: adminProcedure.output(ZNotificationTargets).query(async ({ ctx }) => {
    const rows = await ctx.db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        role: users.role,
        telegramChatId: users.telegramChatId,
      })
      .from(users)
      .where(and(inArray(users.role, [...RECIPIENT_ROLES]), isNull(users.disabledAt)))
      .orderBy(asc(users.role), asc(users.name));
    return { recipients: rows, botConfigured: botConfigured() };
  }),

  update: adminProcedure
    .input(ZNotificationTargetUpdate)
    .output(ZNotificationRecipient)
    .mutation(async ({ ctx, input }) => {
      const [row] = await ctx.db
        .update(users)
        .set({ telegramChatId: input.telegramChatId || null, updatedAt: ctx.now() })
        .where(and(eq(users.id, input.id), inArray(users.role, [...RECIPIENT_ROLES])))
        .returning({
          id: users.id,
          name: users.name,
          email: users.email,
          role: users.role,
          telegramChatId: users.telegramChatId,
        });
      if (!row) throw appError('NOT_FOUND', 'Recipient not found.');
      return row;
    }),
});
