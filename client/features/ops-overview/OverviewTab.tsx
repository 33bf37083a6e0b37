import { formatMoney, formatTonnes } from '../../../shared/domain/format';
import { marginPercent } from '../../../shared/schemas/dashboard';
import { useStaffT } from '../../i18n/staff';
import { trpc } from '../../trpc';
import BarChart from '../../ui/charts/BarChart';
import { Alert } from '../../ui/forms';
import { Money } from '../../ui/Money';
import { StatCard } from '../../ui/StatCard';
import { type TabProps, tabPath } from '../ops/tab-props';

export function OverviewTab(_props: TabProps) {
  const { t } = useStaffT();
  const dashboard = trpc.admin.dashboard.get.useQuery(undefined, { refetchInterval: 60_000 });
  if (dashboard.error) {
    return (
      <Alert>
        {t('overview.failed')}{' '}
        <button type="button" className="button button--secondary" onClick={() => void dashboard.refetch()}>
          {t('common.retry')}
        </button>
      </Alert>
    );
  }
  const d = dashboard.data;
  if (!d) return <p className="muted">{t('overview.loading')}</p>;
  const margin = marginPercent(d.weekly.profit, d.weekly.revenue);
  return (
    <section aria-labelledby="overview-heading">
      <h2 id="overview-heading">{t('tabs.overview')}</h2>
      <div className="grid">
        <StatCard
          label={t('overview.stockAt', { yard: d.yardName })}
          value={formatTonnes(d.stock)}
          to={tabPath('stock')}
          linkText={t('overview.seeStock')}
        />
        <StatCard
          label={t('overview.pendingOrders')}
          value={d.pendingOrders}
          note={t('overview.activeLoads', { count: d.activeAssignments })}
          to={tabPath('orders')}
          linkText={t('overview.seeOrders')}
        />
        <StatCard
          label={t('overview.todayRevenue')}
          value={<Money value={d.daily.revenue} />}
          note={
            <>
              {t('overview.profit')} <Money value={d.daily.profit} />
            </>
          }
        />
        <StatCard
          label={t('overview.weekProfit')}
          value={<Money value={d.weekly.profit} />}
          note={t('overview.margin', { margin: margin === null ? t('common.na') : `${margin.toFixed(1)}%` })}
          to={tabPath('finance')}
          linkText={t('overview.seeFinance')}
        />
      </div>
      <div className="two-col">
        <div className="card">
          <h3>{t('overview.expensePerTruck')}</h3>
          {d.expensesPerTruck.length === 0 ? (
            <p className="muted">{t('overview.noCostsToday')}</p>
          ) : (
            <BarChart
              title={t('overview.expensePerTruck')}
              data={d.expensesPerTruck.map((e) => ({ label: e.plate ?? e.truckId, value: e.amount }))}
              formatValue={formatMoney}
            />
          )}
        </div>
        <div className="card">
          <h3>{t('overview.topDrivers')}</h3>
          {d.topDrivers.length === 0 ? (
            <p className="muted">{t('overview.noDeliveries')}</p>
          ) : (
            <>
              <BarChart
                title={t('overview.topDriversChart')}
                data={d.topDrivers.map((top) => ({ label: top.name, value: top.revenue }))}
                formatValue={formatMoney}
              />
              <ol className="leaderboard">
                {d.topDrivers.map((top) => (
                  <li key={top.driverId}>
                    {t('overview.delivered', { name: top.name, tonnes: formatTonnes(top.tonnes) })}{' '}
                    <Money value={top.revenue} />
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
