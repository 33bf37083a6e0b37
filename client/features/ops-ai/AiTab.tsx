import { useEffect, useState } from 'react';
import { useFormat } from '../../i18n/format';
import { useStaffT } from '../../i18n/staff';
import { errorMessage, trpc } from '../../trpc';
import { Alert } from '../../ui/forms';
import type { TabProps } from '../ops/tab-props';
import { BackupsCard } from './BackupsCard';

/** AI Insights: the latest read of the business, alerts to review, Refresh, and a manual briefing run. */
export function AiTab({ role }: TabProps) {
  const { t } = useStaffT();
  const { dateTime, calendarDay } = useFormat();
  const [waitingSince, setWaitingSince] = useState<string | null | undefined>(undefined);
  const insights = trpc.admin.ai.insights.useQuery(undefined, {
    refetchInterval: waitingSince !== undefined ? 1000 : false,
  });
  const refresh = trpc.admin.ai.refresh.useMutation();
  const briefing = trpc.admin.ai.runBriefing.useMutation();
  const queues = trpc.admin.queues.session.useMutation({
    onSuccess: ({ url }) => void window.open(url, '_blank', 'noopener'),
  });
  const data = insights.data;

  useEffect(() => {
    if (waitingSince !== undefined && data && data.generatedAt !== waitingSince) setWaitingSince(undefined);
  }, [data, waitingSince]);

  const busy = insights.isLoading || waitingSince !== undefined;
  const error = insights.error ?? refresh.error;
  return (
    <section aria-labelledby="ai-heading">
      <div className="toolbar">
        <h2 id="ai-heading" style={{ margin: 0 }}>
          {t('ai.heading')}
        </h2>
        <button
          type="button"
          className="button button--small button--secondary"
          disabled={busy}
          onClick={() => {
            setWaitingSince(data?.generatedAt ?? null);
            refresh.mutate(undefined, { onError: () => setWaitingSince(undefined) });
          }}
        >
          {t('common.refresh')}
        </button>
      </div>
      {error ? <Alert>{t('ai.error', { text: errorMessage(error, t('ai.unknownError')) })}</Alert> : null}
      {busy ? <p className="muted">{t('ai.crunching')}</p> : null}
      <div className="two-col">
        <div className="card">
          {data?.llmFailure ? (
            <Alert tone="warning">{t('ai.llmFellBack', { reason: data.llmFailure })}</Alert>
          ) : null}
          {/* The generators write in English: marked so, a Kiswahili screen reader reads it as English. */}
          {data?.insights ? <p lang="en">{data.insights}</p> : <p>{t('ai.noInsights')}</p>}
          {data?.generatedAt ? (
            <p className="muted">
              {data.generator === 'llm'
                ? t('ai.generatedLlm', { at: dateTime(data.generatedAt) })
                : t('ai.generatedFigures', { at: dateTime(data.generatedAt) })}
            </p>
          ) : null}
        </div>
        <div className="card">
          <h3>{t('ai.alerts')}</h3>
          {data && data.alerts.length === 0 ? <p className="muted">{t('ai.noAlerts')}</p> : null}
          <ul lang="en">
            {(data?.alerts ?? []).map((a) => (
              <li key={a}>{a}</li>
            ))}
          </ul>
        </div>
      </div>
      <div className="card">
        <h3>{t('ai.queues')}</h3>
        <p className="muted">{t('ai.queuesIntro')}</p>
        {queues.error ? <Alert>{errorMessage(queues.error, t('ai.queuesFailed'))}</Alert> : null}
        <button
          type="button"
          className="button button--small button--secondary"
          disabled={queues.isPending}
          onClick={() => queues.mutate()}
        >
          {t('ai.openQueues')}
        </button>
      </div>
      {role === 'ADMIN' ? <BackupsCard /> : null}
      <div className="card">
        <h3>{t('ai.dailySummary')}</h3>
        {data?.dailySummary ? (
          <>
            <p className="muted">{t('ai.staffOnly', { day: calendarDay(data.dailySummary.date) })}</p>
            <p lang="en" style={{ whiteSpace: 'pre-line' }}>
              {data.dailySummary.text}
            </p>
          </>
        ) : (
          <p className="muted">{t('ai.noSummary')}</p>
        )}
      </div>
      <div className="card">
        <h3>{t('ai.briefing')}</h3>
        <p className="muted">{t('ai.briefingIntro')}</p>
        {briefing.isSuccess ? <Alert tone="success">{t('ai.briefingStarted')}</Alert> : null}
        {briefing.error ? <Alert>{errorMessage(briefing.error, t('ai.briefingFailed'))}</Alert> : null}
        <button
          type="button"
          className="button button--small"
          disabled={briefing.isPending}
          onClick={() =>
            briefing.mutate(undefined, { onSuccess: () => setTimeout(() => insights.refetch(), 2000) })
          }
        >
          {t('ai.runBriefing')}
        </button>
      </div>
    </section>
  );
}
