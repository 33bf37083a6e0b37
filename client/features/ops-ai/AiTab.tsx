import { useEffect, useState } from 'react';
import { restCall } from '../../rest';
import { errorMessage, trpc } from '../../trpc';
import { Alert } from '../../ui/forms';
import type { TabProps } from '../ops/tab-props';

const when = new Intl.DateTimeFormat('en-KE', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'Africa/Nairobi',
});

/** AI Insights: the latest read of the business, alerts to review, Refresh, and a manual briefing run. */
export function AiTab(_props: TabProps) {
  const [waitingSince, setWaitingSince] = useState<string | null | undefined>(undefined);
  const [queueError, setQueueError] = useState<string | null>(null);
  const insights = trpc.admin.ai.insights.useQuery(undefined, {
    refetchInterval: waitingSince !== undefined ? 1000 : false,
  });
  const refresh = trpc.admin.ai.refresh.useMutation();
  const briefing = trpc.admin.ai.runBriefing.useMutation();
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
              Generated {when.format(new Date(data.generatedAt))}{' '}
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
        {queueError ? <Alert>{queueError}</Alert> : null}
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={async () => {
            setQueueError(null);
            try {
              const { url } = await restCall<{ url: string }>('POST', '/api/admin/queues/session', {});
              window.open(url, '_blank', 'noopener');
            } catch (err) {
              setQueueError(err instanceof Error ? err.message : 'Could not open the queue dashboard.');
            }
          }}
        >
          Open queue dashboard
        </button>
      </div>
      <div className="card">
        <h3>Daily briefing</h3>
        <p className="muted">The briefing is written every morning at 06:00 from yesterday's operations.</p>
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
          onClick={() => briefing.mutate()}
        >
          Run the morning briefing now
        </button>
      </div>
    </section>
  );
}
