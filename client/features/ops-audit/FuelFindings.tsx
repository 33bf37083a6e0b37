import { useState } from 'react';
import { formatDateTime } from '../../../shared/domain/format';
import type { TFuelAnomaly } from '../../../shared/schemas/fuel-anomalies';
import { errorMessage, trpc } from '../../trpc';
import { Badge } from '../../ui/Badge';
import { Alert, SelectField } from '../../ui/forms';

const KIND_LABELS: Record<TFuelAnomaly['kind'], string> = {
  ODOMETER_BACKWARDS: 'Odometer backwards',
  OVER_TANK_CAPACITY: 'Over tank capacity',
  CONSUMPTION_OUTLIER: 'Unusual consumption',
  ODOMETER_GPS_MISMATCH: 'Odometer vs GPS',
  TRUCK_MOVING: 'Truck moving',
};

function Finding({ finding, onChanged }: { finding: TFuelAnomaly; onChanged: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const review = trpc.fuel.anomalies.review.useMutation({
    onSuccess: onChanged,
    onError: (e) => setError(errorMessage(e, 'Failed to update the finding.')),
  });
  const open = finding.status === 'open';
  return (
    <li className="card audit-record">
      <div className="audit-record__head">
        <strong>
          {KIND_LABELS[finding.kind]} · {finding.plate ?? finding.truckId}
        </strong>
        <Badge tone={finding.status === 'open' ? 'warn' : finding.status === 'reviewed' ? 'good' : 'muted'}>
          {finding.status}
        </Badge>
      </div>
      <p>{finding.detail}</p>
      <dl className="kv">
        <dt>Fuel log</dt>
        <dd>
          #{finding.fuelLogId}, {formatDateTime(finding.capturedAt)}
          {finding.enteredBy ? ` by ${finding.enteredBy}` : ''}
        </dd>
        {finding.reviewedAt ? (
          <>
            <dt>{finding.status === 'dismissed' ? 'Dismissed' : 'Reviewed'}</dt>
            <dd>
              {finding.reviewedBy} {formatDateTime(finding.reviewedAt)}
              {finding.reason ? ` — ${finding.reason}` : ''}
            </dd>
          </>
        ) : null}
      </dl>
      {error ? <Alert>{error}</Alert> : null}
      {open ? (
        <div className="inline-form">
          <input
            aria-label={`Reason for finding ${finding.id}`}
            placeholder="Reason (needed to dismiss)"
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
            Reviewed
          </button>
          <button
            type="button"
            className="button button--small button--secondary"
            disabled={review.isPending}
            onClick={() => review.mutate({ id: finding.id, decision: 'dismissed', reason })}
          >
            Dismiss
          </button>
        </div>
      ) : null}
    </li>
  );
}

/** Fuel logs that look wrong (odometer, tank, consumption, GPS), to review or dismiss with a reason. */
export function FuelFindings() {
  const [status, setStatus] = useState<'open' | 'reviewed' | 'dismissed' | ''>('open');
  const utils = trpc.useUtils();
  const list = trpc.fuel.anomalies.list.useQuery(status ? { status, limit: 400 } : { limit: 400 });
  return (
    <section aria-labelledby="fuel-findings-heading">
      <h2 id="fuel-findings-heading">Fuel findings</h2>
      <p className="muted">
        Fuel logs checked against the truck's odometer, tank, usual consumption and GPS.
      </p>
      <div className="toolbar">
        <SelectField
          label="Status"
          value={status}
          onChange={(e) => setStatus(e.target.value as typeof status)}
        >
          <option value="open">open</option>
          <option value="reviewed">reviewed</option>
          <option value="dismissed">dismissed</option>
          <option value="">any</option>
        </SelectField>
      </div>
      {list.error ? <Alert>Failed to load fuel findings.</Alert> : null}
      {list.data && list.data.length === 0 ? <p className="muted">No fuel findings.</p> : null}
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
