import { useState } from 'react';
import { formatNumber } from '../../../shared/domain/format';
import { compareIso } from '../../../shared/domain/time';
import { COST_TYPES } from '../../../shared/enums';
import {
  AUDIT_STATUSES,
  type AuditStatus,
  type TAuditRecord,
  ZAuditVoidInput,
} from '../../../shared/schemas/money';
import { type Format, useDateTime } from '../../i18n/format';
import { costTypeLabel, type StaffT, useStaffT } from '../../i18n/staff';
import { errorMessage, trpc } from '../../trpc';
import { AfterFirstAnswers } from '../../ui/AfterFirstAnswers';
import { Badge } from '../../ui/Badge';
import { useConfirm } from '../../ui/ConfirmDialog';
import { Alert, SelectField, TextField } from '../../ui/forms';
import { Money } from '../../ui/Money';
import { useZodForm } from '../../ui/useZodForm';
import { TAB_TOPS, TabSection } from '../ops/TabSection';
import type { TabProps } from '../ops/tab-props';
import { FuelFindings } from './FuelFindings';

/** An instant in the screen's language (`dateTime` of useFormat), or nothing when there is none. */
const fmt = (dateTime: Format['dateTime'], iso: string | null) => (iso ? dateTime(iso) : '');

/** A record's state as shown (the filter's values stay the server's). */
const STATUS_LABELS: Record<AuditStatus, (t: StaffT) => string> = {
  pending: (t) => t('audit.statusPending'),
  reviewed: (t) => t('audit.statusReviewed'),
  voided: (t) => t('audit.statusVoided'),
};
const statusLabel = (t: StaffT, status: string) => STATUS_LABELS[status as AuditStatus]?.(t) ?? status;

function AuditRow({ record, onChanged }: { record: TAuditRecord; onChanged: () => void }) {
  const { t } = useStaffT();
  const dateTime = useDateTime();
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
    onError: (e) => setError(errorMessage(e, t('audit.reviewFailed'))),
  });
  const voidRecord = trpc.admin.audit.void.useMutation({
    onSuccess: onChanged,
    onError: (e) => setError(errorMessage(e, t('audit.voidFailed'))),
  });
  const confirm = useConfirm();
  const busy = review.isPending || voidRecord.isPending;
  const what =
    record.entity === 'COST'
      ? t('audit.costRecord', { id: record.id })
      : t('audit.fuelRecord', { id: record.id });
  const truck = record.truckPlate ?? record.truckId ?? t('audit.noTruck');
  const locked = busy || record.status === 'voided';

  return (
    <li className="card audit-record">
      <div className="audit-record__head">
        <strong>
          {what} · {costTypeLabel(t, record.type)} · {truck}
        </strong>
        <Badge tone={record.status === 'voided' ? 'muted' : record.status === 'reviewed' ? 'good' : 'warn'}>
          {statusLabel(t, record.status)}
        </Badge>
      </div>
      <dl className="kv">
        <dt>{t('audit.event')}</dt>
        <dd>{fmt(dateTime, record.eventAt)}</dd>
        {record.entity === 'COST' ? (
          <>
            <dt>{t('audit.amount')}</dt>
            <dd>
              <Money value={record.amount ?? 0} />
            </dd>
            <dt>{t('audit.description')}</dt>
            <dd>{record.description || t('audit.noDescription')}</dd>
          </>
        ) : (
          <>
            <dt>{t('audit.litres')}</dt>
            <dd>
              {record.litres === null
                ? t('common.na')
                : t('audit.litresValue', { litres: formatNumber(record.litres) })}
            </dd>
            <dt>{t('audit.cost')}</dt>
            <dd>
              <Money value={record.cost ?? 0} />
            </dd>
            <dt>{t('audit.note')}</dt>
            <dd>{record.note || '-'}</dd>
          </>
        )}
        <dt>{t('audit.duplicateOf')}</dt>
        <dd>{t('audit.referenceId', { id: record.duplicateOf ?? '-' })}</dd>
        <dt>{t('audit.loggedBy')}</dt>
        <dd>
          {record.createdByName ?? '-'} {record.createdByEmail ? `(${record.createdByEmail})` : ''}
        </dd>
        <dt>{t('audit.confirmed')}</dt>
        <dd>
          {record.confirmedByName ?? '-'} {fmt(dateTime, record.confirmedAt)}
        </dd>
        {record.reviewedAt ? (
          <>
            <dt>{t('audit.reviewed')}</dt>
            <dd>
              {record.reviewedByName} {fmt(dateTime, record.reviewedAt)}{' '}
              {record.reviewNote ? `— ${record.reviewNote}` : ''}
            </dd>
          </>
        ) : null}
        {record.voidedAt ? (
          <>
            <dt>{t('audit.voided')}</dt>
            <dd>
              {record.voidedByName} {fmt(dateTime, record.voidedAt)} — {record.voidReason}
            </dd>
          </>
        ) : null}
      </dl>
      {voidForm.message || error ? <Alert>{voidForm.message?.text ?? error}</Alert> : null}
      <div className="inline-form">
        <input
          aria-label={t('audit.reviewNoteFor', { entity: record.entity, id: record.id })}
          placeholder={t('audit.notePlaceholder')}
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
          {t('audit.markReviewed')}
        </button>
      </div>
      <div className="inline-form">
        <input
          aria-label={t('audit.voidReasonFor', { entity: record.entity, id: record.id })}
          placeholder={t('audit.reasonPlaceholder')}
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
            {t('audit.voidLinked')}
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
                title: t('audit.voidTitle', { what }),
                body: (
                  <>
                    <p>
                      {t('audit.voidThis', { what })}{' '}
                      <Money value={(record.entity === 'COST' ? record.amount : record.cost) ?? 0} />{' '}
                      {t('audit.voidEffect', { truck })}
                      {record.entity === 'FUEL'
                        ? ` ${cascade ? t('audit.voidLinkedToo') : t('audit.voidLinkedStays')}`
                        : ''}
                    </p>
                    <p>{t('audit.voidFinal')}</p>
                  </>
                ),
                confirmLabel: t('audit.voidRecord'),
                cancelLabel: t('audit.keepRecord'),
                onConfirm: () => voidRecord.mutate(input),
              }),
            )(e);
          }}
        >
          {t('audit.void')}
        </button>
      </div>
      {confirm.dialog}
    </li>
  );
}

/** Duplicate review console: filters, newest event first, review and void. */
export function AuditTab(_props: TabProps) {
  const { t } = useStaffT();
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
  const sorted = [...(records.data ?? [])].sort((a, b) => compareIso(b.eventAt, a.eventAt));
  const refresh = () => {
    void utils.admin.audit.list.invalidate();
    void utils.admin.costs.list.invalidate();
    void utils.admin.finance.invalidate();
  };
  const set = (k: keyof typeof filters) => (e: { target: { value: string } }) =>
    setFilters((f) => ({ ...f, [k]: e.target.value }));

  return (
    <TabSection tab="audit" top={TAB_TOPS.audit(t)}>
      <div className="toolbar">
        <SelectField label={t('audit.entity')} value={filters.entity} onChange={set('entity')}>
          <option value="">{t('audit.costsAndFuel')}</option>
          <option value="cost">{t('audit.costs')}</option>
          <option value="fuel">{t('audit.fuel')}</option>
        </SelectField>
        <SelectField label={t('audit.status')} value={filters.status} onChange={set('status')}>
          <option value="">{t('audit.anyStatus')}</option>
          {AUDIT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s](t)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('audit.type')} value={filters.type} onChange={set('type')}>
          <option value="">{t('audit.anyType')}</option>
          {COST_TYPES.map((type) => (
            <option key={type} value={type}>
              {costTypeLabel(t, type)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('common.truck')} value={filters.truckId} onChange={set('truckId')}>
          <option value="">{t('audit.anyTruck')}</option>
          {(trucks.data ?? []).map((truck) => (
            <option key={truck.id} value={truck.id}>
              {truck.plate || truck.id}
            </option>
          ))}
        </SelectField>
        <TextField label={t('finance.from')} type="date" value={filters.from} onChange={set('from')} />
        <TextField label={t('finance.to')} type="date" value={filters.to} onChange={set('to')} />
      </div>
      {records.error ? <Alert>{t('audit.loadFailed')}</Alert> : null}
      {records.data && sorted.length === 0 ? <p className="muted">{t('audit.none')}</p> : null}
      <ul className="plain-list">
        {sorted.map((r) => (
          <AuditRow key={`${r.entity}-${r.id}-${r.status}`} record={r} onChanged={refresh} />
        ))}
      </ul>
      {/* Below the records: shown once they are in, so it is not pushed down as they arrive. */}
      <AfterFirstAnswers>
        <FuelFindings />
      </AfterFirstAnswers>
    </TabSection>
  );
}
