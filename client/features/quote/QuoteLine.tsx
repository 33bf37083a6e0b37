import { formatKes, formatKm } from '../../../shared/domain/format';
import { distanceSourceLabel } from '../../../shared/domain/pricing';
import type { TQuote } from '../../../shared/schemas/orders';

export function QuoteLine({ quote }: { quote: TQuote }) {
  return (
    <div className="quote" aria-live="polite">
      <div className="quote__total">{formatKes(quote.total)}</div>
      <div className="muted">
        {quote.truckCount} × {formatKes(quote.perTruck)} per truck · {formatKm(quote.distanceKm)} (
        {distanceSourceLabel(quote.distanceSource)})
      </div>
    </div>
  );
}
