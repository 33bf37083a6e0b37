import { useState } from 'react';
import { formatDateTime, formatNumber } from '../../../shared/domain/format';
import { COST_TYPES, type TAuditRecord, ZAuditVoidInput } from '../../../shared/schemas/money';
import { errorMessage, trpc } from '../../trpc';
import { Badge } from '../../ui/Badge';
import { useConfirm } from '../../ui/ConfirmDialog';
import { Alert, SelectField, TextField } from '../../ui/forms';
import { Money } from '../../ui/Money';
import { useZodForm } from '../../ui/useZodForm';
import type { TabProps } from '../ops/tab-props';
import { FuelFindings } from './FuelFindings';

const fmt = (iso: string | null) => (iso ? formatDateTime(iso) : '');

function AuditRow({ record, onChanged }: { record: TAuditRecord; onChanged: () => void }) {
  const [note, setNote] = useState('');
  const [cascade, setCascade] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const entity = record.entity === 'COST' ? ('cost' as const) : ('fuel' as const);
  const voidForm = useZodForm({
    schema: ZAuditVoidInput,
    initial: { reason: '' },
    toInput: ({ reason }) => ({
      entity,
      id: record.id,
      reason,
      ...(entity === 'fuel' ? { cascadeCost: cascade } : {}),
    }),
  });
  const clearMessages = () => {
    setError(null);
    voidForm.reset(voidForm.values);
  };
  const review = trpc.admin.audit.review.useMutation({
    onSuccess: onChanged,
    onError: (e) => setError(errorMessage(e, 'Failed to mark record as reviewed.')),
  });
  const voidRecord = trpc.admin.audit.void.useMutation({
    onSuccess: onChanged,
    onError: (e) => setError(errorMessage(e, 'Failed to void duplicate record.')),
  });
  const confirm = useConfirm();
  const busy = review.isPending || voidRecord.isPending;
  const what = `${record.entity === 'COST' ? 'cost' : 'fuel log'} #${record.id}`;
  const truck = record.truckPlate ?? record.truckId ?? 'no truck';
  const locked = busy || record.status === 'voided';

  return (
    <li className="card audit-record">
      <div className="audit-record__head">
        <strong>
          {record.entity} #{record.id} · {record.type} · {record.truckPlate ?? record.truckId ?? '-'}
        </strong>
        <Badge tone={record.status === 'voided' ? 'muted' : record.status === 'reviewed' ? 'good' : 'warn'}>
          {record.status}
        </Badge>
      </div>
      <dl className="kv">
        <dt>Event</dt>
        <dd>{fmt(record.eventAt)}</dd>
        {record.entity === 'COST' ? (
          <>
            <dt>Amount</dt>
            <dd>
              <Money value={record.amount ?? 0} />
            </dd>
            <dt>Description</dt>
            <dd>{record.description || 'No description'}</dd>
          </>
        ) : (
          <>
            <dt>Litres</dt>
            <dd>{record.litres === null ? 'n/a' : `${formatNumber(record.litres)} litres`}</dd>
            <dt>Cost</dt>
            <dd>
              <Money value={record.cost ?? 0} />
            </dd>
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
      {voidForm.message || error ? <Alert>{voidForm.message?.text ?? error}</Alert> : null}
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
            clearMessages();
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
          disabled={locked}
          {...voidForm.field('reason')}
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
          onClick={(e) => {
            setError(null);
            voidForm.submit((input) =>
              confirm.ask({
                title: `Void ${what}?`,
                body: (
                  <>
                    <p>
                      This {what} of{' '}
                      <Money value={(record.entity === 'COST' ? record.amount : record.cost) ?? 0} /> for{' '}
                      {truck} leaves every total: the costs ledger, finance and the truck's figures.
                      {record.entity === 'FUEL'
                        ? cascade
                          ? ' Its linked cost entry is voided with it.'
                          : ' Its linked cost entry stays in the totals.'
                        : ''}
                    </p>
                    <p>Voiding cannot be undone; the record stays here, marked voided, with your reason.</p>
                  </>
                ),
                confirmLabel: 'Void record',
                cancelLabel: 'Keep record',
                onConfirm: () => voidRecord.mutate(input),
              }),
            )(e);
          }}
        >
          Void
        </button>
      </div>
      {confirm.dialog}
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
      <FuelFindings />
    </section>
  );
}
