import { formatDateTime, formatNumber } from '../../../shared/domain/format';
import type { TFuelLog } from '../../../shared/schemas/money';
import { useTranslation } from '../../i18n';
import { Money } from '../../ui/Money';
import { useAuthedImage } from '../../ui/useAuthedImage';

/** Litres and kilometres as the list shows them, and the duplicate panel too. */
export const litresText = (litres: number | null) =>
  litres === null ? 'n/a' : `${formatNumber(litres)} litres`;
export const kmText = (km: number | null) => (km === null ? 'n/a' : `${formatNumber(km)} km`);

function Photo({ name, alt }: { name: string; alt: string }) {
  const url = useAuthedImage(name);
  return url ? <img src={url} alt={alt} className="preview" /> : null;
}

export function FuelLogEntry({ log }: { log: TFuelLog }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === 'sw' ? 'sw' : 'en';
  return (
    <li className="card fuel-entry">
      <div className="truck-card__head">
        <strong>{log.plate ?? log.truckId}</strong>
        <span className="muted">{formatDateTime(log.capturedAt, 'medium', locale)}</span>
      </div>
      <dl className="kv">
        <dt>{t('fuel.entryLitres')}</dt>
        <dd>{litresText(log.litres)}</dd>
        <dt>{t('fuel.entryCost')}</dt>
        <dd>
          <Money value={log.cost} />
        </dd>
        <dt>{t('fuel.entryOdometer')}</dt>
        <dd>{kmText(log.odometer)}</dd>
        <dt>{t('fuel.entryMileage')}</dt>
        <dd>{kmText(log.mileage)}</dd>
        <dt>{t('fuel.entryDriver')}</dt>
        <dd>{log.driverName ?? t('fuel.entryNotSet')}</dd>
        <dt>{t('fuel.entryLoggedBy')}</dt>
        <dd>{log.createdBy ?? 'n/a'}</dd>
      </dl>
      {log.isDuplicate ? (
        <div className="dup-note">
          {t('fuel.entryDuplicate')}
          {log.confirmedAt ? ` ${formatDateTime(log.confirmedAt, 'medium', locale)}` : ''} ·{' '}
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
