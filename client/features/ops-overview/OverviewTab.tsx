import { lazy, Suspense } from 'react';
import { formatKes } from '../../../shared/domain/format';
import { marginPercent } from '../../../shared/schemas/dashboard';
import { trpc } from '../../trpc';
import { Alert } from '../../ui/forms';
import type { TabProps } from '../ops/tab-props';

const HorizontalBarChart = lazy(() => import('../../ui/charts/HorizontalBarChart'));

export function OverviewTab(_props: TabProps) {
  const dashboard = trpc.admin.dashboard.get.useQuery(undefined, { refetchInterval: 60_000 });
  if (dashboard.error) {
    return (
      <Alert>
        Failed to load dashboard overview{' '}
        <button type="button" className="button button--secondary" onClick={() => void dashboard.refetch()}>
          Retry
        </button>
      </Alert>
    );
  }
  const d = dashboard.data;
  if (!d) return <p className="muted">Loading overview…</p>;
  const margin = marginPercent(d.weekly.profit, d.weekly.revenue);
  return (
    <section aria-labelledby="overview-heading">
      <h2 id="overview-heading">Overview</h2>
      <div className="grid">
        <div className="card stat">
          <span className="stat__label">Stock at {d.yardName}</span>
          <strong className="stat__value">{d.stock.toLocaleString('en-KE')} t</strong>
        </div>
        <div className="card stat">
          <span className="stat__label">Pending orders</span>
          <strong className="stat__value">{d.pendingOrders}</strong>
          <span className="muted">{d.activeAssignments} active loads</span>
        </div>
        <div className="card stat">
          <span className="stat__label">Today's revenue</span>
          <strong className="stat__value">{formatKes(d.daily.revenue)}</strong>
          <span className="muted">Profit {formatKes(d.daily.profit)}</span>
        </div>
        <div className="card stat">
          <span className="stat__label">7-day gross profit</span>
          <strong className="stat__value">{formatKes(d.weekly.profit)}</strong>
          <span className="muted">Margin {margin === null ? 'n/a' : `${margin.toFixed(1)}%`}</span>
        </div>
      </div>
      <div className="two-col">
        <div className="card">
          <h3>Expense per truck today</h3>
          {d.expensesPerTruck.length === 0 ? (
            <p className="muted">No costs recorded today.</p>
          ) : (
            <Suspense fallback={<p className="muted">Loading chart…</p>}>
              <HorizontalBarChart
                title="Expense per truck today"
                data={d.expensesPerTruck.map((e) => ({ label: e.plate ?? e.truckId, value: e.amount }))}
                formatValue={formatKes}
              />
            </Suspense>
          )}
        </div>
        <div className="card">
          <h3>Top drivers, last 7 days</h3>
          {d.topDrivers.length === 0 ? (
            <p className="muted">No deliveries in the last 7 days.</p>
          ) : (
            <>
              <Suspense fallback={<p className="muted">Loading chart…</p>}>
                <HorizontalBarChart
                  title="Top drivers by revenue, last 7 days"
                  data={d.topDrivers.map((t) => ({ label: t.name, value: t.revenue }))}
                  formatValue={formatKes}
                />
              </Suspense>
              <ol className="leaderboard">
                {d.topDrivers.map((t) => (
                  <li key={t.driverId}>
                    {t.name}: {t.tonnes.toLocaleString('en-KE')} t delivered, {formatKes(t.revenue)}
                  </li>
                ))}
              </ol>
            </>
          )}
        </div>
      </div>
    </section>
  );
}
