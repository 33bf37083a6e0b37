import { useState } from 'react';
import { FUEL_ANOMALY_STATUSES } from '../../../shared/enums';
import type { TFuelAnomaly } from '../../../shared/schemas/fuel-anomalies';
import { useDateTime } from '../../i18n/format';
import { type StaffT, useStaffT } from '../../i18n/staff';
import { errorMessage, trpc } from '../../trpc';
import { Badge } from '../../ui/Badge';
import { Alert, SelectField } from '../../ui/forms';

const KIND_LABELS: Record<TFuelAnomaly['kind'], (t: StaffT) => string> = {
  ODOMETER_BACKWARDS: (t) => t('findings.odometerBackwards'),
  OVER_TANK_CAPACITY: (t) => t('findings.overTank'),
  CONSUMPTION_OUTLIER: (t) => t('findings.consumption'),
  ODOMETER_GPS_MISMATCH: (t) => t('findings.gpsMismatch'),
  TRUCK_MOVING: (t) => t('findings.truckMoving'),
};

const STATUS_LABELS: Record<TFuelAnomaly['status'], (t: StaffT) => string> = {
  open: (t) => t('findings.statusOpen'),
  reviewed: (t) => t('findings.statusReviewed'),
  dismissed: (t) => t('findings.statusDismissed'),
};

function Finding({ finding, onChanged }: { finding: TFuelAnomaly; onChanged: () => void }) {
  const { t } = useStaffT();
  const dateTime = useDateTime();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const review = trpc.fuel.anomalies.review.useMutation({
    onSuccess: onChanged,
    onError: (e) => setError(errorMessage(e, t('findings.updateFailed'))),
  });
  const open = finding.status === 'open';
  return (
    <li className="card audit-record">
      <div className="audit-record__head">
        <strong>
          {KIND_LABELS[finding.kind](t)} · {finding.plate ?? finding.truckId}
        </strong>
        <Badge tone={finding.status === 'open' ? 'warn' : finding.status === 'reviewed' ? 'good' : 'muted'}>
          {STATUS_LABELS[finding.status]?.(t) ?? finding.status}
        </Badge>
      </div>
      {/* Written in English by the anomaly rules (core/fuel-anomalies). */}
      <p lang="en">{finding.detail}</p>
      <dl className="kv">
        <dt>{t('findings.fuelLog')}</dt>
        <dd>
          #{finding.fuelLogId}, {dateTime(finding.capturedAt)}
          {finding.enteredBy ? ` ${t('findings.enteredBy', { name: finding.enteredBy })}` : ''}
        </dd>
        {finding.reviewedAt ? (
          <>
            <dt>{finding.status === 'dismissed' ? t('findings.dismissed') : t('findings.reviewed')}</dt>
            <dd>
              {finding.reviewedBy} {dateTime(finding.reviewedAt)}
              {finding.reason ? ` — ${finding.reason}` : ''}
            </dd>
          </>
        ) : null}
      </dl>
      {error ? <Alert>{error}</Alert> : null}
      {open ? (
        <div className="inline-form">
          <input
            aria-label={t('findings.reasonFor', { id: finding.id })}
            placeholder={t('findings.reasonPlaceholder')}
            value={reason}
            disabled={review.isPending}
            onChange={(e) => setReason(e.target.value)}
          />
          <button
            type="button"
            className="button button--small"
            disabled={review.isPending}
            onClick={() =>
              review.mutate({ id: finding.id, decision: 'reviewed', reason: reason || undefined })
            }
          >
            {t('findings.markReviewed')}
          </button>
          <button
            type="button"
            className="button button--small button--secondary"
            disabled={review.isPending}
            onClick={() => review.mutate({ id: finding.id, decision: 'dismissed', reason })}
          >
            {t('findings.dismiss')}
          </button>
        </div>
      ) : null}
    </li>
  );
}

/** Fuel logs that look wrong (odometer, tank, consumption, GPS), to review or dismiss with a reason. */
export function FuelFindings() {
  const { t } = useStaffT();
  const [status, setStatus] = useState<'open' | 'reviewed' | 'dismissed' | ''>('open');
  const utils = trpc.useUtils();
  const list = trpc.fuel.anomalies.list.useQuery(status ? { status, limit: 400 } : { limit: 400 });
  return (
    <section aria-labelledby="fuel-findings-heading">
      <h2 id="fuel-findings-heading">{t('findings.heading')}</h2>
      <p className="muted">{t('findings.intro')}</p>
      <div className="toolbar">
        <SelectField
          label={t('audit.status')}
          value={status}
          onChange={(e) => setStatus(e.target.value as typeof status)}
        >
          {FUEL_ANOMALY_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s](t)}
            </option>
          ))}
          <option value="">{t('findings.statusAny')}</option>
        </SelectField>
      </div>
      {list.error ? <Alert>{t('findings.loadFailed')}</Alert> : null}
      {list.data && list.data.length === 0 ? <p className="muted">{t('findings.none')}</p> : null}
      <ul className="plain-list">
        {(list.data ?? []).map((f) => (
          <Finding
            key={`${f.id}-${f.status}`}
            finding={f}
            onChanged={() => void utils.fuel.anomalies.list.invalidate()}
          />
        ))}
      </ul>
    </section>
  );
}
