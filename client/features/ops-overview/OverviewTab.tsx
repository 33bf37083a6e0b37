import { lazy, Suspense } from 'react';
import { formatMoney, formatTonnes, plural } from '../../../shared/domain/format';
import { marginPercent } from '../../../shared/schemas/dashboard';
import { trpc } from '../../trpc';
import { Alert } from '../../ui/forms';
import { Money } from '../../ui/Money';
import { StatCard } from '../../ui/StatCard';
import { type TabProps, tabPath } from '../ops/tab-props';

const BarChart = lazy(() => import('../../ui/charts/BarChart'));

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
        <StatCard
          label={`Stock at ${d.yardName}`}
          value={formatTonnes(d.stock)}
          to={tabPath('stock')}
          linkText="See stock"
        />
        <StatCard
          label="Pending orders"
          value={d.pendingOrders}
          note={plural(d.activeAssignments, 'active load')}
          to={tabPath('orders')}
          linkText="See orders"
        />
        <StatCard
          label="Today's revenue"
          value={<Money value={d.daily.revenue} />}
          note={
            <>
              Profit <Money value={d.daily.profit} />
            </>
          }
        />
        <StatCard
          label="7-day gross profit"
          value={<Money value={d.weekly.profit} />}
          note={`Margin ${margin === null ? 'n/a' : `${margin.toFixed(1)}%`}`}
          to={tabPath('finance')}
          linkText="See finance"
        />
      </div>
      <div className="two-col">
        <div className="card">
          <h3>Expense per truck today</h3>
          {d.expensesPerTruck.length === 0 ? (
            <p className="muted">No costs recorded today.</p>
          ) : (
            <Suspense fallback={<p className="muted">Loading chart…</p>}>
              <BarChart
                title="Expense per truck today"
                data={d.expensesPerTruck.map((e) => ({ label: e.plate ?? e.truckId, value: e.amount }))}
                formatValue={formatMoney}
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
                <BarChart
                  title="Top drivers by revenue, last 7 days"
                  data={d.topDrivers.map((t) => ({ label: t.name, value: t.revenue }))}
                  formatValue={formatMoney}
                />
              </Suspense>
              <ol className="leaderboard">
                {d.topDrivers.map((t) => (
                  <li key={t.driverId}>
                    {t.name}: {formatTonnes(t.tonnes)} delivered, <Money value={t.revenue} />
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
