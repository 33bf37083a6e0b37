import { formatKm, formatMoney } from '../../../shared/domain/format';
import type { TQuote } from '../../../shared/schemas/orders';
import { statusLabel } from '../../i18n/labels';
import { useLandingT } from '../../i18n/landing';

export function QuoteLine({ quote }: { quote: TQuote }) {
  const { t } = useLandingT();
  return (
    <div className="quote" aria-live="polite">
      <div className="quote__total">{formatMoney(quote.total)}</div>
      <div className="muted">
        {t('quote.perTruckLine', { count: quote.truckCount, price: formatMoney(quote.perTruck) })} ·{' '}
        {formatKm(quote.distanceKm)} ({statusLabel(t, 'distance', quote.distanceSource)})
      </div>
    </div>
  );
}
