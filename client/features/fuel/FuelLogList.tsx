import type { TFuelLog } from '../../../shared/schemas/money';
import { useFormat } from '../../i18n/format';
import { Money } from '../../ui/Money';
import { useAuthedImage } from '../../ui/useAuthedImage';

type Format = Pick<ReturnType<typeof useFormat>, 't' | 'number'>;

/** Litres and kilometres as the list shows them, and the duplicate panel too ("120 litres", "lita 120"). */
export const litresText = (litres: number | null, { t, number }: Format) =>
  litres === null ? t('fuel.notAvailable') : t('fuel.litresValue', { n: number(litres) });
export const kmText = (km: number | null, { t, number }: Format) =>
  km === null ? t('fuel.notAvailable') : t('fuel.kmValue', { n: number(km) });

function Photo({ name, alt }: { name: string; alt: string }) {
  const url = useAuthedImage(name);
  return url ? <img src={url} alt={alt} className="preview" /> : null;
}

export function FuelLogEntry({ log }: { log: TFuelLog }) {
  const f = useFormat();
  const { t, dateTime } = f;
  return (
    <li className="card fuel-entry">
      <div className="truck-card__head">
        <strong>{log.plate ?? log.truckId}</strong>
        <span className="muted">{dateTime(log.capturedAt)}</span>
      </div>
      <dl className="kv">
        <dt>{t('fuel.entryLitres')}</dt>
        <dd>{litresText(log.litres, f)}</dd>
        <dt>{t('fuel.entryCost')}</dt>
        <dd>
          <Money value={log.cost} />
        </dd>
        <dt>{t('fuel.entryOdometer')}</dt>
        <dd>{kmText(log.odometer, f)}</dd>
        <dt>{t('fuel.entryMileage')}</dt>
        <dd>{kmText(log.mileage, f)}</dd>
        <dt>{t('fuel.entryDriver')}</dt>
        <dd>{log.driverName ?? t('fuel.entryNotSet')}</dd>
        <dt>{t('fuel.entryLoggedBy')}</dt>
        <dd>{log.createdBy ?? t('fuel.notAvailable')}</dd>
      </dl>
      {log.isDuplicate ? (
        <div className="dup-note">
          {t('fuel.entryDuplicate')}
          {log.confirmedAt ? ` ${dateTime(log.confirmedAt)}` : ''} ·{' '}
          {t('fuel.entryReference', { id: log.duplicateOf ?? '-' })}
        </div>
      ) : null}
      {log.note ? <p>{log.note}</p> : null}
      {log.photoPath ? (
        <Photo name={log.photoPath} alt={t('fuel.entryPhoto', { truck: log.plate ?? log.truckId })} />
      ) : null}
    </li>
  );
}
