import { MAX_TRUCKS_PER_ORDER } from '../../../shared/constants';
import { SelectField, TextField } from '../../ui/forms';
import type { QuoteRequest } from './useQuote';

const TRUCK_CHOICES = Array.from({ length: MAX_TRUCKS_PER_ORDER }, (_, i) => i + 1);

type LoadValues = Pick<QuoteRequest, 'sandType' | 'trucks' | 'distance'>;

/** Sand type, trucks (1 to 20 by dropdown) and the optional distance: the fields every quote needs. */
export function LoadFields({
  value,
  onChange,
}: {
  value: LoadValues;
  onChange: (patch: Partial<LoadValues>) => void;
}) {
  return (
    <>
      <SelectField
        label="Sand type"
        value={value.sandType}
        onChange={(e) => onChange({ sandType: e.target.value as LoadValues['sandType'] })}
      >
        <option value="coarse">Coarse sand</option>
        <option value="smooth">Smooth sand</option>
      </SelectField>
      <SelectField
        label="Trucks (20 t each)"
        value={value.trucks}
        onChange={(e) => onChange({ trucks: Number(e.target.value) })}
      >
        {TRUCK_CHOICES.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </SelectField>
      <TextField
        label="Distance (km, optional)"
        type="number"
        min={0}
        step="0.1"
        inputMode="decimal"
        value={value.distance}
        onChange={(e) => onChange({ distance: e.target.value })}
      />
    </>
  );
}
