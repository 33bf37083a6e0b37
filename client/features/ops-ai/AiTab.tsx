import { useEffect, useState } from 'react';
import { formatCalendarDay, formatDateTime } from '../../../shared/domain/format';
import { errorMessage, trpc } from '../../trpc';
import { Alert } from '../../ui/forms';
import type { TabProps } from '../ops/tab-props';

/** AI Insights: the latest read of the business, alerts to review, Refresh, and a manual briefing run. */
export function AiTab(_props: TabProps) {
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
          AI Insights
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
          Refresh
        </button>
      </div>
      {error ? <Alert>AI error: {errorMessage(error, 'unknown error')}</Alert> : null}
      {busy ? <p className="muted">Crunching the latest data…</p> : null}
      <div className="two-col">
        <div className="card">
          <p>{data?.insights || 'No insights yet.'}</p>
          {data?.generatedAt ? (
            <p className="muted">
              Generated {formatDateTime(data.generatedAt)}{' '}
              {data.generator === 'llm' ? 'with the language model' : 'from the figures'}
            </p>
          ) : null}
        </div>
        <div className="card">
          <h3>Alerts to review</h3>
          {data && data.alerts.length === 0 ? (
            <p className="muted">Nothing needs attention right now.</p>
          ) : null}
          <ul>
            {(data?.alerts ?? []).map((a) => (
              <li key={a}>{a}</li>
            ))}
          </ul>
        </div>
      </div>
      <div className="card">
        <h3>Job queues</h3>
        <p className="muted">Failed background jobs stay a week for inspection on the queue dashboard.</p>
        {queues.error ? (
          <Alert>{errorMessage(queues.error, 'Could not open the queue dashboard.')}</Alert>
        ) : null}
        <button
          type="button"
          className="button button--small button--secondary"
          disabled={queues.isPending}
          onClick={() => queues.mutate()}
        >
          Open queue dashboard
        </button>
      </div>
      <div className="card">
        <h3>Daily summary</h3>
        {data?.dailySummary ? (
          <>
            <p className="muted">Staff only: {formatCalendarDay(data.dailySummary.date)}</p>
            <p style={{ whiteSpace: 'pre-line' }}>{data.dailySummary.text}</p>
          </>
        ) : (
          <p className="muted">No daily summary yet.</p>
        )}
      </div>
      <div className="card">
        <h3>Daily briefing</h3>
        <p className="muted">
          Every morning at 06:00 the run publishes a public article for customers and builders and sends staff
          the summary of yesterday's operations (here and on Telegram).
        </p>
        {briefing.isSuccess ? (
          <Alert tone="success">
            The briefing run has started; it appears on the briefings page shortly.
          </Alert>
        ) : null}
        {briefing.error ? (
          <Alert>{errorMessage(briefing.error, 'Could not start the briefing run.')}</Alert>
        ) : null}
        <button
          type="button"
          className="button button--small"
          disabled={briefing.isPending}
          onClick={() =>
            briefing.mutate(undefined, { onSuccess: () => setTimeout(() => insights.refetch(), 2000) })
          }
        >
          Run the morning briefing now
        </button>
      </div>
    </section>
  );
}
