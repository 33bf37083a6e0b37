import { type FormEvent, useState } from 'react';
import { formatMoney, formatNumber } from '../../../shared/domain/format';
import { addDays, localDate } from '../../../shared/domain/time';
import { costTypeLabel, useStaffT } from '../../i18n/staff';
import { trpc } from '../../trpc';
import BarChart from '../../ui/charts/BarChart';
import RevenueCostChart from '../../ui/charts/RevenueCostChart';
import { DataList } from '../../ui/DataList';
import { FormAnswer, FormStatus, TextField } from '../../ui/forms';
import { Money } from '../../ui/Money';
import { StatCard } from '../../ui/StatCard';
import type { TabProps } from '../ops/tab-props';
import { EtimsInvoices } from './EtimsInvoices';
import { Receivables } from './Receivables';
import { TripProfit } from './TripProfit';

/** Finance dashboard over Nairobi days: cards, daily lines, per-truck gross and breakdown, cost mix. */
export function FinanceTab(_props: TabProps) {
  const { t } = useStaffT();
  const today = localDate(new Date());
  const [draft, setDraft] = useState({ from: addDays(today, -29), to: today });
  // Until a Refresh, no range: the server's default is the same 30 days (shared/domain/finance.ts
  // resolveRange), and calls without dates can be asked for by the page's HTML (shared/first-data.ts).
  const [range, setRange] = useState<typeof draft | undefined>(undefined);
  // Each Refresh: a refusal (a range the server does not take) comes into view and takes the focus.
  const [refreshed, setRefreshed] = useState(0);
  const summary = trpc.admin.finance.summary.useQuery(range);
  const series = trpc.admin.finance.timeseries.useQuery(range);
  const trucks = trpc.admin.finance.truckBreakdown.useQuery(range);
  const mix = trpc.admin.finance.costMix.useQuery(range);
  const failed = summary.error ?? series.error ?? trucks.error;
  const mixTotal = (mix.data ?? []).reduce((a, b) => a + b.amount, 0) || 1;

  function refresh(e: FormEvent) {
    e.preventDefault();
    setRange({ ...draft });
    setRefreshed((n) => n + 1);
    void summary.refetch();
    void series.refetch();
    void trucks.refetch();
    void mix.refetch();
  }

  const s = summary.data;
  return (
    <section aria-labelledby="finance-heading">
      <h2 id="finance-heading">{t('finance.heading')}</h2>
      <form className="toolbar" onSubmit={refresh}>
        <TextField
          label={t('finance.from')}
          type="date"
          value={draft.from}
          onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))}
        />
        <TextField
          label={t('finance.to')}
          type="date"
          value={draft.to}
          onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))}
        />
        <button type="submit" className="button button--small">
          {t('common.refresh')}
        </button>
      </form>
      <FormStatus
        message={
          failed ? { tone: 'error', text: failed.message || t('finance.failed'), seq: refreshed } : null
        }
      />
      {/* After Refresh the figures for the new range are the answer: in view and focused (a refusal above). */}
      <FormAnswer seq={failed ? 0 : refreshed}>
        <div className="grid">
          <StatCard label={t('finance.revenueKes')} value={s ? <Money value={s.revenue} /> : '…'} />
          <StatCard label={t('finance.orders')} value={s ? formatNumber(s.orders) : '…'} />
          <StatCard label={t('finance.costsKes')} value={s ? <Money value={s.costTotal} /> : '…'} />
          <StatCard label={t('finance.grossKes')} value={s ? <Money value={s.gross} /> : '…'} />
        </div>
      </FormAnswer>
      <div className="card">
        <h3>{t('finance.revenueVsCosts')}</h3>
        {series.data ? (
          <RevenueCostChart
            title={t('finance.revenueVsCosts')}
            data={series.data}
            labels={{
              revenue: t('chart.revenue'),
              costs: t('chart.costs'),
              amounts: t('chart.amounts'),
              empty: t('chart.empty'),
              months: t('chart.months'),
            }}
          />
        ) : null}
      </div>
      <div className="two-col">
        <div className="card">
          <h3>{t('finance.perTruckGross')}</h3>
          {trucks.data && trucks.data.length === 0 ? (
            <p className="muted">{t('finance.noTruckRevenue')}</p>
          ) : null}
          {trucks.data && trucks.data.length > 0 ? (
            <BarChart
              title={t('finance.perTruckGross')}
              data={trucks.data.map((r) => ({ label: r.plate ?? r.truckId, value: r.gross }))}
              formatValue={formatMoney}
            />
          ) : null}
        </div>
        <div className="card">
          <h3>{t('finance.costMix')}</h3>
          {mix.data && mix.data.length === 0 ? <p className="muted">{t('finance.noCosts')}</p> : null}
          <ul className="plain-list">
            {(mix.data ?? []).map((m) => (
              <li key={m.type}>
                <div
                  className="button-row"
                  style={{ justifyContent: 'space-between', gap: '0.25rem 0.75rem' }}
                >
                  <span>{costTypeLabel(t, m.type)}</span>
                  <span>
                    <Money value={m.amount} /> ({((m.amount / mixTotal) * 100).toFixed(1)}%)
                  </span>
                </div>
                <div className="meter" aria-hidden="true">
                  <span style={{ width: `${(m.amount / mixTotal) * 100}%` }} />
                </div>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="card">
        <h3>{t('finance.breakdown')}</h3>
        <DataList
          label={t('finance.breakdown')}
          rows={trucks.data ?? []}
          rowKey={(r) => r.truckId}
          title={(r) => r.plate ?? r.truckId}
          columns={[
            { header: t('common.truck'), cell: (r) => r.plate ?? r.truckId, hideOnCard: true },
            { header: t('finance.loads'), numeric: true, cell: (r) => formatNumber(r.loads) },
            { header: t('finance.revenue'), numeric: true, cell: (r) => <Money value={r.revenue} /> },
            { header: t('finance.costs'), numeric: true, cell: (r) => <Money value={r.cost} /> },
            { header: t('finance.gross'), numeric: true, cell: (r) => <Money value={r.gross} /> },
            {
              header: t('finance.margin'),
              numeric: true,
              cell: (r) => (r.margin === null ? t('common.na') : `${r.margin.toFixed(1)}%`),
            },
          ]}
        />
      </div>
      <TripProfit range={range} />
      <EtimsInvoices />
      <Receivables />
    </section>
  );
}
