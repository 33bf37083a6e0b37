import { useState } from 'react';
import { formatKesExact } from '../../../shared/domain/format';
import { COST_TYPES, type TAuditRecord } from '../../../shared/schemas/money';
import { errorMessage, trpc } from '../../trpc';
import { Alert, SelectField, TextField } from '../../ui/forms';
import type { TabProps } from '../ops/tab-props';

const when = new Intl.DateTimeFormat('en-KE', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'Africa/Nairobi',
});
const fmt = (iso: string | null) => (iso ? when.format(new Date(iso)) : '');

function AuditRow({ record, onChanged }: { record: TAuditRecord; onChanged: () => void }) {
  const [note, setNote] = useState('');
  const [reason, setReason] = useState('');
  const [cascade, setCascade] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const entity = record.entity === 'COST' ? ('cost' as const) : ('fuel' as const);
  const review = trpc.admin.audit.review.useMutation({
    onSuccess: onChanged,
    onError: (e) => setError(errorMessage(e, 'Failed to mark record as reviewed.')),
  });
  const voidRecord = trpc.admin.audit.void.useMutation({
    onSuccess: onChanged,
    onError: (e) => setError(errorMessage(e, 'Failed to void duplicate record.')),
  });
  const busy = review.isPending || voidRecord.isPending;
  const locked = busy || record.status === 'voided';

  return (
    <li className="card audit-record">
      <div className="button-row" style={{ justifyContent: 'space-between' }}>
        <strong>
          {record.entity} #{record.id} · {record.type} · {record.truckPlate ?? record.truckId ?? '-'}
        </strong>
        <span className="status-pill">{record.status}</span>
      </div>
      <dl className="kv">
        <dt>Event</dt>
        <dd>{fmt(record.eventAt)}</dd>
        {record.entity === 'COST' ? (
          <>
            <dt>Amount</dt>
            <dd>{formatKesExact(record.amount ?? 0)}</dd>
            <dt>Description</dt>
            <dd>{record.description || 'No description'}</dd>
          </>
        ) : (
          <>
            <dt>Litres</dt>
            <dd>{record.litres ?? 'n/a'}</dd>
            <dt>Cost</dt>
            <dd>{formatKesExact(record.cost ?? 0)}</dd>
            <dt>Note</dt>
            <dd>{record.note || '-'}</dd>
          </>
        )}
        <dt>Duplicate of</dt>
        <dd>Reference id {record.duplicateOf ?? '-'}</dd>
        <dt>Logged by</dt>
        <dd>
          {record.createdByName ?? '-'} {record.createdByEmail ? `(${record.createdByEmail})` : ''}
        </dd>
        <dt>Confirmed</dt>
        <dd>
          {record.confirmedByName ?? '-'} {fmt(record.confirmedAt)}
        </dd>
        {record.reviewedAt ? (
          <>
            <dt>Reviewed</dt>
            <dd>
              {record.reviewedByName} {fmt(record.reviewedAt)}{' '}
              {record.reviewNote ? `— ${record.reviewNote}` : ''}
            </dd>
          </>
        ) : null}
        {record.voidedAt ? (
          <>
            <dt>Voided</dt>
            <dd>
              {record.voidedByName} {fmt(record.voidedAt)} — {record.voidReason}
            </dd>
          </>
        ) : null}
      </dl>
      {error ? <Alert>{error}</Alert> : null}
      <div className="inline-form">
        <input
          aria-label={`Review note for ${record.entity} ${record.id}`}
          placeholder="Note (optional)"
          value={note}
          disabled={locked}
          onChange={(e) => setNote(e.target.value)}
        />
        <button
          type="button"
          className="button button--small"
          disabled={locked}
          onClick={() => {
            setError(null);
            review.mutate({ entity, id: record.id, note });
          }}
        >
          Mark as reviewed
        </button>
      </div>
      <div className="inline-form">
        <input
          aria-label={`Void reason for ${record.entity} ${record.id}`}
          placeholder="Reason"
          value={reason}
          disabled={locked}
          onChange={(e) => setReason(e.target.value)}
        />
        {record.entity === 'FUEL' ? (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={cascade}
              disabled={locked}
              onChange={(e) => setCascade(e.target.checked)}
            />
            Also void the linked cost
          </label>
        ) : null}
        <button
          type="button"
          className="button button--small button--secondary"
          disabled={locked}
          onClick={() => {
            setError(null);
            if (!reason.trim()) return setError('Provide a reason before voiding the duplicate record.');
            voidRecord.mutate({
              entity,
              id: record.id,
              reason,
              ...(entity === 'fuel' ? { cascadeCost: cascade } : {}),
            });
          }}
        >
          Void
        </button>
      </div>
    </li>
  );
}

/** Duplicate review console: filters, newest event first, review and void. */
export function AuditTab(_props: TabProps) {
  const utils = trpc.useUtils();
  const [filters, setFilters] = useState({ entity: '', status: '', type: '', truckId: '', from: '', to: '' });
  const input = {
    limit: 400,
    ...(filters.entity ? { entity: filters.entity as 'cost' | 'fuel' } : {}),
    ...(filters.status ? { status: filters.status as 'pending' | 'reviewed' | 'voided' } : {}),
    ...(filters.type ? { type: filters.type } : {}),
    ...(filters.truckId ? { truckId: filters.truckId } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
  };
  const records = trpc.admin.audit.list.useQuery(input);
  const trucks = trpc.admin.trucks.list.useQuery();
  const sorted = [...(records.data ?? [])].sort((a, b) => b.eventAt.localeCompare(a.eventAt));
  const refresh = () => {
    void utils.admin.audit.list.invalidate();
    void utils.admin.costs.list.invalidate();
    void utils.admin.finance.invalidate();
  };
  const set = (k: keyof typeof filters) => (e: { target: { value: string } }) =>
    setFilters((f) => ({ ...f, [k]: e.target.value }));

  return (
    <section aria-labelledby="audit-heading">
      <h2 id="audit-heading">Audit</h2>
      <p className="muted">
        Entries confirmed as intentional duplicates. Mark them reviewed, or void them to take them out of
        every total.
      </p>
      <div className="toolbar">
        <SelectField label="Entity" value={filters.entity} onChange={set('entity')}>
          <option value="">Costs and fuel</option>
          <option value="cost">Costs</option>
          <option value="fuel">Fuel</option>
        </SelectField>
        <SelectField label="Status" value={filters.status} onChange={set('status')}>
          <option value="">Any status</option>
          <option value="pending">pending</option>
          <option value="reviewed">reviewed</option>
          <option value="voided">voided</option>
        </SelectField>
        <SelectField label="Type" value={filters.type} onChange={set('type')}>
          <option value="">Any type</option>
          {COST_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </SelectField>
        <SelectField label="Truck" value={filters.truckId} onChange={set('truckId')}>
          <option value="">Any truck</option>
          {(trucks.data ?? []).map((t) => (
            <option key={t.id} value={t.id}>
              {t.plate || t.id}
            </option>
          ))}
        </SelectField>
        <TextField label="From" type="date" value={filters.from} onChange={set('from')} />
        <TextField label="To" type="date" value={filters.to} onChange={set('to')} />
      </div>
      {records.error ? <Alert>Failed to load duplicate records.</Alert> : null}
      {records.data && sorted.length === 0 ? (
        <p className="muted">No duplicate records match these filters.</p>
      ) : null}
      <ul className="plain-list">
        {sorted.map((r) => (
          <AuditRow key={`${r.entity}-${r.id}-${r.status}`} record={r} onChanged={refresh} />
        ))}
      </ul>
    </section>
  );
}
