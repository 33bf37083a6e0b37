import { useMemo, useState } from 'react';
import { COSTS_CSV_HEADER, toCsv } from '../../../shared/domain/csv';
import { formatKesExact } from '../../../shared/domain/format';
import { localDate } from '../../../shared/domain/time';
import { COST_TYPES, type TCost } from '../../../shared/schemas/money';
import { trpc } from '../../trpc';
import { downloadText } from '../../ui/download';
import { Alert, SelectField, TextField } from '../../ui/forms';
import type { TabProps } from '../ops/tab-props';
import { AddCostForm } from './AddCostForm';

const when = new Intl.DateTimeFormat('en-KE', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'Africa/Nairobi',
});

function RecentCosts({ costs }: { costs: TCost[] }) {
  return (
    <section className="card" aria-labelledby="recent-costs">
      <h3 id="recent-costs">Recent costs</h3>
      {costs.length === 0 ? <p className="muted">No costs recorded yet.</p> : null}
      <ul className="recent-costs">
        {costs.slice(0, 50).map((c) => (
          <li key={c.id}>
            <div>
              <strong>{formatKesExact(c.amount)}</strong> · {c.type} · {c.plate ?? c.truck_id ?? '-'} ·{' '}
              {when.format(new Date(c.incurred_at))}
              {c.voided ? ' · voided' : ''}
            </div>
            <div className="muted">{c.description}</div>
            {c.is_duplicate ? (
              <div className="dup-note">
                Marked duplicate{c.confirmed_at ? ` ${when.format(new Date(c.confirmed_at))}` : ''} ·
                Reference id {c.duplicate_of ?? '-'}
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Costs: ADMIN gets the ledger with filters, CSV and editing; OPS records costs and sees recent ones. */
export function CostsTab({ role }: TabProps) {
  const costs = trpc.admin.costs.list.useQuery();
  const [editing, setEditing] = useState<TCost | null>(null);
  const [filters, setFilters] = useState({ type: '', truck: '', from: '', to: '' });
  const [csvError, setCsvError] = useState<string | null>(null);

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
    if (filtered.length === 0) return setCsvError('There are no costs to export for these filters.');
    downloadText(
      'costs.csv',
      toCsv(
        COSTS_CSV_HEADER,
        filtered.map((c) => [c.incurred_at, c.type, c.plate ?? c.truck_id ?? '', c.amount, c.description]),
      ),
    );
  }

  return (
    <section aria-labelledby="costs-heading">
      <h2 id="costs-heading">Costs</h2>
      {costs.error ? (
        <Alert>{role === 'ADMIN' ? 'Failed to load cost records.' : 'Failed to load costs data.'}</Alert>
      ) : null}
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
          <h3 id="ledger-heading">Ledger</h3>
          <div className="toolbar">
            <SelectField
              label="Filter by type"
              value={filters.type}
              onChange={(e) => setFilters((f) => ({ ...f, type: e.target.value }))}
            >
              <option value="">All types</option>
              {COST_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </SelectField>
            <TextField
              label="Filter by truck"
              value={filters.truck}
              onChange={(e) => setFilters((f) => ({ ...f, truck: e.target.value }))}
            />
            <TextField
              label="From"
              type="date"
              value={filters.from}
              onChange={(e) => setFilters((f) => ({ ...f, from: e.target.value }))}
            />
            <TextField
              label="To"
              type="date"
              value={filters.to}
              onChange={(e) => setFilters((f) => ({ ...f, to: e.target.value }))}
            />
            <button type="button" className="button button--small button--secondary" onClick={exportCsv}>
              Export CSV
            </button>
          </div>
          {csvError ? <Alert>{csvError}</Alert> : null}
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Datetime</th>
                  <th>Type</th>
                  <th>Truck</th>
                  <th>Amount</th>
                  <th>Description</th>
                  <th>
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {filtered.map((c) => (
                  <tr key={c.id} className={c.voided ? 'voided' : undefined}>
                    <td>{when.format(new Date(c.incurred_at))}</td>
                    <td>{c.type}</td>
                    <td>{c.plate ?? c.truck_id ?? '-'}</td>
                    <td>{formatKesExact(c.amount)}</td>
                    <td>
                      {c.description}
                      {c.is_duplicate ? (
                        <div className="dup-note">
                          Marked duplicate · Reference id {c.duplicate_of ?? '-'}
                        </div>
                      ) : null}
                      {c.voided ? <div className="muted">Voided</div> : null}
                    </td>
                    <td>
                      {c.source === 'MANUAL' && !c.voided ? (
                        <button
                          type="button"
                          className="button button--small button--secondary"
                          onClick={() => setEditing(c)}
                        >
                          Edit cost {c.id}
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
    </section>
  );
}
