import { orderConversations, replyToCustomer, setTakeover } from '../../../core/messaging/ops.service';
import { ZOrderIdInput } from '../../../shared/schemas/admin-orders';
import {
  ZConversation,
  ZOrderConversations,
  ZReplyInput,
  ZTakeoverInput,
} from '../../../shared/schemas/messaging';
import { roleProcedure, router } from '../../trpc';

const opsProcedure = roleProcedure('ADMIN', 'OPS');

/** The customer's WhatsApp and SMS conversation on an order, ops' takeover and replies (issue 29). */
export const messagingRouter = router({
  orderConversations: opsProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/orders/:id/conversations',
        summary: "The customer's WhatsApp and SMS messages about an order, and whether the bot or ops answer",
        errors: [404],
        example: { id: '42' },
      },
    })
    .input(ZOrderIdInput)
    .output(ZOrderConversations)
    .query(({ ctx, input }) => orderConversations(ctx.db, ctx.deps.settings, input.id, ctx.now())),

  takeover: opsProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/admin/conversations/:id/takeover',
        summary: 'Take a conversation over from the bot (on) or hand it back (off)',
        errors: [404],
        example: { id: '7', on: true },
      },
    })
    .input(ZTakeoverInput)
    .output(ZConversation)
    .mutation(({ ctx, input }) => setTakeover(ctx.db, ctx.user, input, ctx.now())),

  reply: opsProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/conversations/:id/reply',
        summary:
          "Reply by hand: WhatsApp inside the customer's 24-hour window, else SMS; 409 when neither can reach them. Takes the conversation over",
        status: 201,
        errors: [404, 409],
        example: { id: '7', orderId: 42, text: 'The truck is at the Kenol junction, 10 minutes away.' },
      },
    })
    .input(ZReplyInput)
    .output(ZConversation)
    .mutation(({ ctx, input }) => replyToCustomer(ctx.db, ctx.deps.settings, ctx.user, input, ctx.now())),
});
