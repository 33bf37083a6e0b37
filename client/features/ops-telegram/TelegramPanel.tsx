import { useState } from 'react';
import {
  type TNotificationRecipient,
  ZNotificationTargetUpdate,
} from '../../../shared/schemas/notifications';
import { errorMessage, trpc } from '../../trpc';
import { DataList } from '../../ui/DataList';
import { Alert } from '../../ui/forms';
import { useZodForm } from '../../ui/useZodForm';

function ChatIdForm({ r }: { r: TNotificationRecipient }) {
  const utils = trpc.useUtils();
  const form = useZodForm({
    schema: ZNotificationTargetUpdate,
    initial: { telegramChatId: r.telegramChatId ?? '' },
    toInput: (v) => ({ ...v, id: r.id }),
  });
  const [saved, setSaved] = useState(false);
  const save = trpc.admin.notifications.update.useMutation({
    onSuccess: () => {
      setSaved(true);
      void utils.admin.notifications.list.invalidate();
    },
    onError: (e) => form.report('error', errorMessage(e, 'Could not save the chat id.')),
  });
  const error = form.message?.tone === 'error' ? form.message.text : null;
  return (
    <div className="inline-form">
      <input
        aria-label={`Telegram chat id for ${r.name}`}
        inputMode="numeric"
        placeholder="e.g. 123456789 or -100…"
        value={form.values.telegramChatId}
        onChange={(e) => {
          // A new value takes back the last answer (saved, or the error icon).
          setSaved(false);
          form.reset({ telegramChatId: e.target.value });
        }}
      />
      <button
        type="button"
        className="button button--small button--secondary"
        disabled={save.isPending}
        onClick={(e) => {
          setSaved(false);
          form.submit((input) => save.mutate(input))(e);
        }}
      >
        Save chat id
      </button>
      {saved ? <span className="muted">Saved</span> : null}
      {error ? (
        <span role="alert" className="field__error" title={error}>
          <span aria-hidden="true">⚠</span> {error}
        </span>
      ) : null}
    </div>
  );
}

/** Telegram alert routing: ADMIN and OPS users with a chat id field each. */
export function TelegramPanel() {
  const targets = trpc.admin.notifications.list.useQuery();
  return (
    <section aria-labelledby="telegram-heading" className="card">
      <h2 id="telegram-heading">Telegram alert routing</h2>
      <p className="muted">
        New orders, payment confirmations, flagged duplicates, idle loaded trucks, low yard stock and the
        morning briefing go to every chat id below.
      </p>
      {targets.error ? <Alert>Failed to load Telegram targets.</Alert> : null}
      {targets.data && !targets.data.botConfigured ? (
        <Alert tone="warning">
          The Telegram bot is not configured: alerts are recorded but not sent. Set TELEGRAM_BOT_TOKEN on the
          server and restart it.
        </Alert>
      ) : null}
      <DataList
        label="Telegram recipients"
        rows={targets.data?.recipients ?? []}
        rowKey={(r) => r.id}
        title={(r) => (
          <>
            {r.name}
            <div className="muted">{r.email}</div>
          </>
        )}
        columns={[
          {
            header: 'Recipient',
            hideOnCard: true,
            cell: (r) => (
              <>
                {r.name}
                <div className="muted">{r.email}</div>
              </>
            ),
          },
          { header: 'Role', cell: (r) => r.role },
          {
            header: 'Telegram chat id',
            cell: (r) => (
              <>
                <ChatIdForm r={r} />
                {r.failing ? (
                  <div className="field__error">Telegram refused the last alert: {r.failing.error}</div>
                ) : null}
              </>
            ),
          },
        ]}
      />
    </section>
  );
}
