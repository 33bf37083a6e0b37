import { useState } from 'react';
import {
  type TNotificationRecipient,
  ZNotificationTargetUpdate,
} from '../../../shared/schemas/notifications';
import { useStaffT } from '../../i18n/staff';
import { errorMessage, trpc } from '../../trpc';
import { DataList } from '../../ui/DataList';
import { Alert } from '../../ui/forms';
import { useZodForm } from '../../ui/useZodForm';

function ChatIdForm({ r }: { r: TNotificationRecipient }) {
  const { t } = useStaffT();
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
    onError: (e) => form.report('error', errorMessage(e, t('telegram.saveFailed'))),
  });
  const error = form.message?.tone === 'error' ? form.message.text : null;
  return (
    <div className="inline-form">
      <input
        aria-label={t('telegram.chatIdFor', { name: r.name })}
        inputMode="numeric"
        placeholder={t('telegram.chatIdPlaceholder')}
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
        {t('telegram.saveChatId')}
      </button>
      {saved ? <span className="muted">{t('telegram.saved')}</span> : null}
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
  const { t } = useStaffT();
  const targets = trpc.admin.notifications.list.useQuery();
  return (
    <section aria-labelledby="telegram-heading" className="card">
      <h2 id="telegram-heading">{t('telegram.heading')}</h2>
      <p className="muted">{t('telegram.intro')}</p>
      {targets.error ? <Alert>{t('telegram.loadFailed')}</Alert> : null}
      {targets.data && !targets.data.botConfigured ? (
        <Alert tone="warning">{t('telegram.notConfigured')}</Alert>
      ) : null}
      <DataList
        label={t('telegram.recipients')}
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
            header: t('telegram.recipient'),
            hideOnCard: true,
            cell: (r) => (
              <>
                {r.name}
                <div className="muted">{r.email}</div>
              </>
            ),
          },
          { header: t('telegram.role'), cell: (r) => r.role },
          {
            header: t('telegram.chatId'),
            cell: (r) => (
              <>
                <ChatIdForm r={r} />
                {r.failing ? (
                  <div className="field__error">{t('telegram.refused', { error: r.failing.error })}</div>
                ) : null}
              </>
            ),
          },
        ]}
      />
    </section>
  );
}
