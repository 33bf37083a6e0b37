import { type FormEvent, lazy, Suspense, useState } from 'react';
import { formatKes } from '../../../shared/domain/format';
import { addDays, localDate } from '../../../shared/domain/time';
import { trpc } from '../../trpc';
import { Alert, TextField } from '../../ui/forms';
import type { TabProps } from '../ops/tab-props';

const RevenueCostChart = lazy(() => import('../../ui/charts/RevenueCostChart'));
const HorizontalBarChart = lazy(() => import('../../ui/charts/HorizontalBarChart'));

/** Finance dashboard over Nairobi days: cards, daily lines, per-truck gross and breakdown, cost mix. */
export function FinanceTab(_props: TabProps) {
  const today = localDate(new Date());
  const [draft, setDraft] = useState({ from: addDays(today, -29), to: today });
  const [range, setRange] = useState(draft);
  const summary = trpc.admin.finance.summary.useQuery(range);
  const series = trpc.admin.finance.timeseries.useQuery(range);
  const trucks = trpc.admin.finance.truckBreakdown.useQuery(range);
  const mix = trpc.admin.finance.costMix.useQuery(range);
  const failed = summary.error ?? series.error ?? trucks.error;

  function refresh(e: FormEvent) {
    e.preventDefault();
    setRange({ ...draft });
    void summary.refetch();
    void series.refetch();
    void trucks.refetch();
    void mix.refetch();
  }

  const s = summary.data;
  return (
    <section aria-labelledby="finance-heading">
      <h2 id="finance-heading">Finance</h2>
      <form className="toolbar" onSubmit={refresh}>
        <TextField
          label="From"
          type="date"
          value={draft.from}
          onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))}
        />
        <TextField
          label="To"
          type="date"
          value={draft.to}
          onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))}
        />
        <button type="submit" className="button button--small">
          Refresh
        </button>
      </form>
      {failed ? <Alert>{failed.message || 'Failed to load finance data.'}</Alert> : null}
      <div className="grid">
        <div className="card stat">
          <span className="stat__label">Revenue (KES)</span>
          <strong className="stat__value">{s ? formatKes(s.revenue) : '…'}</strong>
        </div>
        <div className="card stat">
          <span className="stat__label">Orders</span>
          <strong className="stat__value">{s ? s.orders.toLocaleString('en-KE') : '…'}</strong>
        </div>
        <div className="card stat">
          <span className="stat__label">Costs (KES)</span>
          <strong className="stat__value">{s ? formatKes(s.costTotal) : '…'}</strong>
        </div>
        <div className="card stat">
          <span className="stat__label">Gross Profit (KES)</span>
          <strong className="stat__value">{s ? formatKes(s.gross) : '…'}</strong>
        </div>
      </div>
      <div className="card">
        <h3>Revenue vs Costs (daily)</h3>
        {series.data ? (
          <Suspense fallback={<p className="muted">Loading chart…</p>}>
            <RevenueCostChart title="Revenue vs Costs (daily)" data={series.data} />
          </Suspense>
        ) : null}
      </div>
      <div className="two-col">
        <div className="card">
          <h3>Per-truck Gross Profit</h3>
          {trucks.data && trucks.data.length === 0 ? (
            <p className="muted">No truck revenue or costs in this range.</p>
          ) : null}
          {trucks.data && trucks.data.length > 0 ? (
            <Suspense fallback={<p className="muted">Loading chart…</p>}>
              <HorizontalBarChart
                title="Per-truck Gross Profit"
                data={trucks.data.map((r) => ({ label: r.plate ?? r.truckId, value: r.gross }))}
                formatValue={formatKes}
              />
            </Suspense>
          ) : null}
        </div>
        <div className="card">
          <h3>Cost mix by type</h3>
          {mix.data && mix.data.length === 0 ? <p className="muted">No costs in this range.</p> : null}
          <ul className="plain-list">
            {(mix.data ?? []).map((m) => {
              const total = (mix.data ?? []).reduce((a, b) => a + b.amount, 0) || 1;
              return (
                <li key={m.type}>
                  <div className="button-row" style={{ justifyContent: 'space-between' }}>
                    <span>{m.type}</span>
                    <span>
                      {formatKes(m.amount)} ({((m.amount / total) * 100).toFixed(1)}%)
                    </span>
                  </div>
                  <div className="meter" aria-hidden="true">
                    <span style={{ width: `${(m.amount / total) * 100}%` }} />
                  </div>
                </li>
              );
            })}
          </ul>
        </div>
      </div>
      <div className="card">
        <h3>Per-truck Breakdown</h3>
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Truck</th>
                <th>Loads</th>
                <th>Revenue</th>
                <th>Costs</th>
                <th>Gross</th>
                <th>Margin</th>
              </tr>
            </thead>
            <tbody>
              {(trucks.data ?? []).map((r) => (
                <tr key={r.truckId}>
                  <td>{r.plate ?? r.truckId}</td>
                  <td>{r.loads}</td>
                  <td>{formatKes(r.revenue)}</td>
                  <td>{formatKes(r.cost)}</td>
                  <td>{formatKes(r.gross)}</td>
                  <td>{r.margin === null ? 'n/a' : `${r.margin.toFixed(1)}%`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
