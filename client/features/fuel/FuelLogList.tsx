import { formatKesExact } from '../../../shared/domain/format';
import type { TFuelLog } from '../../../shared/schemas/money';
import { useAuthedImage } from '../../ui/useAuthedImage';

const when = new Intl.DateTimeFormat('en-KE', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'Africa/Nairobi',
});

function Photo({ name, alt }: { name: string; alt: string }) {
  const url = useAuthedImage(name);
  return url ? <img src={url} alt={alt} className="preview" /> : null;
}

export function FuelLogEntry({ log }: { log: TFuelLog }) {
  return (
    <li className="card fuel-entry">
      <div className="button-row" style={{ justifyContent: 'space-between' }}>
        <strong>{log.plate ?? log.truckId}</strong>
        <span className="muted">{when.format(new Date(log.capturedAt))}</span>
      </div>
      <dl className="kv">
        <dt>Litres</dt>
        <dd>{log.litres ?? 'n/a'}</dd>
        <dt>Cost</dt>
        <dd>{formatKesExact(log.cost)}</dd>
        <dt>Odometer</dt>
        <dd>{log.odometer !== null ? `${log.odometer.toLocaleString('en-KE')} km` : 'n/a'}</dd>
        <dt>Mileage since last</dt>
        <dd>{log.mileage !== null ? `${log.mileage.toLocaleString('en-KE')} km` : 'n/a'}</dd>
        <dt>Driver</dt>
        <dd>{log.driverName ?? 'Not set'}</dd>
        <dt>Logged by</dt>
        <dd>{log.createdBy ?? 'n/a'}</dd>
      </dl>
      {log.isDuplicate ? (
        <div className="dup-note">
          Marked as duplicate for audit{log.confirmedAt ? ` ${when.format(new Date(log.confirmedAt))}` : ''} ·
          Reference id {log.duplicateOf ?? '-'}
        </div>
      ) : null}
      {log.note ? <p>{log.note}</p> : null}
      {log.photoPath ? (
        <Photo name={log.photoPath} alt={`Pump or dashboard photo for ${log.plate ?? log.truckId}`} />
      ) : null}
    </li>
  );
}
