import { useMemo, useRef, useState } from 'react';
import { localDate } from '../../../shared/domain/time';
import { COST_TYPES } from '../../../shared/enums';
import type { TCost } from '../../../shared/schemas/money';
import { useDateTime } from '../../i18n/format';
import { costTypeLabel, useStaffT } from '../../i18n/staff';
import { trpc } from '../../trpc';
import { Badge } from '../../ui/Badge';
import { DataList } from '../../ui/DataList';
import { downloadCsv } from '../../ui/download';
import { Alert, SelectField, TextField } from '../../ui/forms';
import { Money } from '../../ui/Money';
import type { TabProps } from '../ops/tab-props';
import { AddCostForm } from './AddCostForm';

/** costs.csv's columns (spec, CSV exports). */
const COSTS_CSV_HEADER = ['Datetime', 'Type', 'Truck', 'Amount', 'Description'];

function RecentCosts({ costs }: { costs: TCost[] }) {
  const { t } = useStaffT();
  const dateTime = useDateTime();
  return (
    <section className="card" aria-labelledby="recent-costs">
      <h3 id="recent-costs">{t('costs.recent')}</h3>
      {costs.length === 0 ? <p className="muted">{t('costs.noneYet')}</p> : null}
      {/* A list that scrolls in its own box: focusable, so a keyboard can scroll it too. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable */}
      <section className="recent-costs" aria-label={t('costs.recentList')} tabIndex={0}>
        <ul className="plain-list">
          {costs.slice(0, 50).map((c) => (
            <li key={c.id} className={c.voided ? 'recent-cost voided' : 'recent-cost'}>
              <div className="recent-cost__head">
                <Money value={c.amount} strong /> <span>{costTypeLabel(t, c.type)}</span>
                {c.voided ? <Badge tone="muted">{t('costs.voided')}</Badge> : null}
              </div>
              <div className="muted">
                {c.plate ?? c.truck_id ?? '-'} · {dateTime(c.incurred_at)}
              </div>
              <div>{c.description}</div>
              {c.is_duplicate ? (
                <div className="dup-note">
                  {t('costs.markedDuplicate')}
                  {c.confirmed_at ? ` ${dateTime(c.confirmed_at)}` : ''} · {t('costs.referenceId')}{' '}
                  {c.duplicate_of ?? '-'}
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
    </section>
  );
}

/** Costs: ADMIN gets the ledger with filters, CSV and editing; OPS records costs and sees recent ones. */
export function CostsTab({ role }: TabProps) {
  const { t } = useStaffT();
  const dateTime = useDateTime();
  const costs = trpc.admin.costs.list.useQuery();
  const [editing, setEditing] = useState<TCost | null>(null);
  const [filters, setFilters] = useState({ type: '', truck: '', from: '', to: '' });
  const [csvError, setCsvError] = useState<string | null>(null);
  const formTop = useRef<HTMLDivElement>(null);
  function edit(c: TCost) {
    setEditing(c);
    // On a phone the form is a screen away from the ledger.
    formTop.current?.scrollIntoView({ block: 'start' });
  }

  const filtered = useMemo(
    () =>
      (costs.data ?? []).filter((c) => {
        const day = localDate(new Date(c.incurred_at));
        if (filters.type && c.type !== filters.type) return false;
        if (
          filters.truck &&
          ![c.truck_id ?? '', c.plate ?? ''].some((v) =>
            v.toLowerCase().includes(filters.truck.toLowerCase()),
          )
        )
          return false;
        if (filters.from && day < filters.from) return false;
        if (filters.to && day > filters.to) return false;
        return true;
      }),
    [costs.data, filters],
  );

  function exportCsv() {
    setCsvError(null);
    if (filtered.length === 0) return setCsvError(t('costs.nothingToExport'));
    void downloadCsv(
      'costs.csv',
      COSTS_CSV_HEADER,
      filtered.map((c) => [c.incurred_at, c.type, c.plate ?? c.truck_id ?? '', c.amount, c.description]),
    ).catch(() => setCsvError(t('common.exportFailed')));
  }

  return (
    <section aria-labelledby="costs-heading">
      <h2 id="costs-heading">{t('tabs.costs')}</h2>
      {costs.error ? <Alert>{role === 'ADMIN' ? t('costs.failedAdmin') : t('costs.failedOps')}</Alert> : null}
      <div ref={formTop} className="scroll-target" />
      <div className="two-col">
        <AddCostForm
          key={editing?.id ?? 'new'}
          role={role}
          editing={editing}
          onDone={() => setEditing(null)}
        />
        <RecentCosts costs={costs.data ?? []} />
      </div>
      {role === 'ADMIN' ? (
        <section aria-labelledby="ledger-heading">
          <h3 id="ledger-heading">{t('costs.ledger')}</h3>
          <div className="toolbar">
            <SelectField
              label={t('costs.filterType')}
              value={filters.type}
              onChange={(e) => setFilters((f) => ({ ...f, type: e.target.value }))}
            >
              <option value="">{t('costs.allTypes')}</option>
              {COST_TYPES.map((type) => (
                <option key={type} value={type}>
                  {costTypeLabel(t, type)}
                </option>
              ))}
            </SelectField>
            <TextField
              label={t('costs.filterTruck')}
              value={filters.truck}
              onChange={(e) => setFilters((f) => ({ ...f, truck: e.target.value }))}
            />
            <TextField
              label={t('finance.from')}
              type="date"
              value={filters.from}
              onChange={(e) => setFilters((f) => ({ ...f, from: e.target.value }))}
            />
            <TextField
              label={t('finance.to')}
              type="date"
              value={filters.to}
              onChange={(e) => setFilters((f) => ({ ...f, to: e.target.value }))}
            />
            <button type="button" className="button button--small button--secondary" onClick={exportCsv}>
              {t('stock.exportCsv')}
            </button>
          </div>
          {csvError ? <Alert>{csvError}</Alert> : null}
          <DataList
            label={t('costs.ledgerLabel')}
            rows={filtered}
            rowKey={(c) => c.id}
            rowClassName={(c) => (c.voided ? 'voided' : undefined)}
            title={(c) => (
              <>
                <Money value={c.amount} /> · {costTypeLabel(t, c.type)}
              </>
            )}
            columns={[
              { header: t('costs.datetime'), cell: (c) => dateTime(c.incurred_at) },
              { header: t('costs.type'), cell: (c) => c.type, hideOnCard: true },
              { header: t('common.truck'), cell: (c) => c.plate ?? c.truck_id ?? '-' },
              {
                header: t('costs.amount'),
                numeric: true,
                cell: (c) => <Money value={c.amount} />,
                hideOnCard: true,
              },
              {
                header: t('costs.description'),
                cell: (c) => (
                  <>
                    {c.description}
                    {c.is_duplicate ? (
                      <div className="dup-note">
                        {t('costs.markedDuplicate')} · {t('costs.referenceId')} {c.duplicate_of ?? '-'}
                      </div>
                    ) : null}
                    {c.voided ? <div className="muted">{t('costs.voidedRow')}</div> : null}
                  </>
                ),
              },
            ]}
            actions={(c) =>
              c.source === 'MANUAL' && !c.voided ? (
                <button
                  type="button"
                  className="button button--small button--secondary"
                  onClick={() => edit(c)}
                >
                  {t('costs.editCost', { id: c.id })}
                </button>
              ) : null
            }
            empty={costs.data ? t('costs.noMatch') : null}
          />
        </section>
      ) : null}
    </section>
  );
}
