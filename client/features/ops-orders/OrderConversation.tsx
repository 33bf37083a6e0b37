import { useId, useState } from 'react';
import type { TConversation, TConversationMessage } from '../../../shared/schemas/messaging';
import { useDateTime } from '../../i18n/format';
import { useStaffT } from '../../i18n/staff';
import { errorMessage, trpc } from '../../trpc';
import { Badge } from '../../ui/Badge';

/** One message as a bubble: the customer's on the left, ours on the right, with how it went. */
function Bubble({ m }: { m: TConversationMessage }) {
  const { t } = useStaffT();
  const dateTime = useDateTime();
  const status: Record<string, string> = {
    RECEIVED: '',
    PENDING: t('messaging.statusPending'),
    SENDING: t('messaging.statusPending'),
    SENT: t('messaging.statusSent'),
    DELIVERED: t('messaging.statusDelivered'),
    READ: t('messaging.statusRead'),
    FAILED: t('messaging.statusFailed'),
    SKIPPED: t('messaging.statusSkipped'),
  };
  const who = m.direction === 'IN' ? t('messaging.customer') : (m.byUserName ?? t('messaging.bot'));
  return (
    <li className={`bubble bubble--${m.direction === 'IN' ? 'in' : 'out'}`}>
      <p className="bubble__text">{m.text}</p>
      <small className="bubble__meta">
        {who} · {m.channel === 'SMS' ? 'SMS' : 'WhatsApp'}
        {m.template ? ` · ${t('messaging.template', { name: m.template })}` : ''} · {dateTime(m.at, 'short')}
        {status[m.status] ? ` · ${status[m.status]}` : ''}
        {m.status === 'FAILED' && m.errorCode ? ` (${m.errorCode})` : ''}
      </small>
    </li>
  );
}

function ConversationView({ conv, orderId }: { conv: TConversation; orderId: number }) {
  const { t } = useStaffT();
  const utils = trpc.useUtils();
  const refresh = () => utils.admin.messaging.orderConversations.invalidate({ id: orderId });
  const takeover = trpc.admin.messaging.takeover.useMutation({ onSuccess: refresh });
  const reply = trpc.admin.messaging.reply.useMutation({
    onSuccess: () => {
      setText('');
      return refresh();
    },
  });
  const [text, setText] = useState('');
  const id = useId();
  const error = takeover.error ?? reply.error;
  return (
    <section className="conversation" aria-label={t('messaging.with', { phone: `+${conv.phone}` })}>
      <p className="order-meta">
        {conv.profileName ? `${conv.profileName} · ` : ''}+{conv.phone}
      </p>
      <div className="badges">
        <Badge tone={conv.takenOver ? 'warn' : 'info'}>
          {conv.takenOver
            ? t('messaging.opsAnswer', { name: conv.takenOverBy ?? t('messaging.ops') })
            : t('messaging.botAnswers')}
        </Badge>
        <Badge tone={conv.windowOpen ? 'good' : 'muted'}>
          {conv.windowOpen ? t('messaging.windowOpen') : t('messaging.windowClosed')}
        </Badge>
        {conv.whatsappOptedOut || conv.smsOptedOut ? (
          <Badge tone="bad">{t('messaging.optedOut')}</Badge>
        ) : null}
      </div>
      <ol className="bubbles">
        {conv.messages.map((m) => (
          <Bubble key={m.id} m={m} />
        ))}
      </ol>
      <button
        type="button"
        className="button button--secondary"
        disabled={takeover.isPending}
        onClick={() => takeover.mutate({ id: conv.id, on: !conv.takenOver })}
      >
        {conv.takenOver ? t('messaging.handBack') : t('messaging.takeOver')}
      </button>
      <form
        className="conversation__reply"
        onSubmit={(e) => {
          e.preventDefault();
          reply.mutate({ id: conv.id, orderId, text });
        }}
      >
        <div className="field">
          <label htmlFor={id}>{t('messaging.replyLabel')}</label>
          <textarea
            id={id}
            rows={2}
            maxLength={1000}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
        <button type="submit" className="button" disabled={reply.isPending || !text.trim()}>
          {reply.isPending ? t('messaging.sending') : t('messaging.send')}
        </button>
      </form>
      {error ? (
        <div role="alert" className="field__error">
          {errorMessage(error, t('messaging.failed'))}
        </div>
      ) : null}
    </section>
  );
}

/** The order's customer conversations, loaded when ops open them. */
function Conversations({ orderId }: { orderId: number }) {
  const { t } = useStaffT();
  const q = trpc.admin.messaging.orderConversations.useQuery({ id: orderId }, { refetchInterval: 15_000 });
  if (q.isPending) return <p className="order-meta">{t('messaging.loading')}</p>;
  if (q.error) return <p role="alert">{errorMessage(q.error, t('messaging.failed'))}</p>;
  if (!q.data.whatsapp && !q.data.sms && q.data.conversations.length === 0)
    return <p className="order-meta">{t('messaging.off')}</p>;
  if (q.data.conversations.length === 0) return <p className="order-meta">{t('messaging.none')}</p>;
  return (
    <>
      {q.data.conversations.map((c) => (
        <ConversationView key={c.id} conv={c} orderId={orderId} />
      ))}
    </>
  );
}

/** "Customer messages" on an order card: the WhatsApp and SMS conversation, takeover and replies. */
export function OrderConversation({ orderId }: { orderId: number }) {
  const { t } = useStaffT();
  const [open, setOpen] = useState(false);
  return (
    <details className="order-conversation" onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary className="order-conversation__summary">{t('messaging.heading')}</summary>
      {open ? <Conversations orderId={orderId} /> : null}
    </details>
  );
}
