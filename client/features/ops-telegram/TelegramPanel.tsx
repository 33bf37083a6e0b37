import { useState } from 'react';
import { CHAT_ID_MESSAGE, validTelegramChatId } from '../../../shared/schemas/notifications';
import { errorMessage, trpc } from '../../trpc';
import { Alert } from '../../ui/forms';

function RecipientRow({
  r,
}: {
  r: { id: number; name: string; email: string; role: string; telegramChatId: string | null };
}) {
  const utils = trpc.useUtils();
  const [value, setValue] = useState(r.telegramChatId ?? '');
  const [state, setState] = useState<{ kind: 'idle' | 'saved' | 'error'; text?: string }>({ kind: 'idle' });
  const save = trpc.admin.notifications.update.useMutation({
    onSuccess: () => {
      setState({ kind: 'saved' });
      void utils.admin.notifications.list.invalidate();
    },
    onError: (e) => setState({ kind: 'error', text: errorMessage(e, 'Could not save the chat id.') }),
  });
  return (
    <tr>
      <td>
        {r.name}
        <div className="muted">{r.email}</div>
      </td>
      <td>{r.role}</td>
      <td>
        <div className="inline-form">
          <input
            aria-label={`Telegram chat id for ${r.name}`}
            inputMode="numeric"
            placeholder="e.g. 123456789 or -100…"
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              setState({ kind: 'idle' });
            }}
          />
          <button
            type="button"
            className="button button--small button--secondary"
            disabled={save.isPending}
            onClick={() => {
              const v = value.trim();
              if (v && !validTelegramChatId(v)) return setState({ kind: 'error', text: CHAT_ID_MESSAGE });
              save.mutate({ id: r.id, telegramChatId: v });
            }}
          >
            Save chat id
          </button>
          {state.kind === 'saved' ? <span className="muted">Saved</span> : null}
          {state.kind === 'error' ? (
            <span role="alert" className="field__error" title={state.text}>
              <span aria-hidden="true">⚠</span> {state.text}
            </span>
          ) : null}
        </div>
      </td>
    </tr>
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
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th>Recipient</th>
              <th>Role</th>
              <th>Telegram chat id</th>
            </tr>
          </thead>
          <tbody>
            {(targets.data?.recipients ?? []).map((r) => (
              <RecipientRow key={r.id} r={r} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
