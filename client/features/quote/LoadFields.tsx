import { MAX_TRUCKS_PER_ORDER } from '../../../shared/constants';
import { SAND_TYPES } from '../../../shared/enums';
import { useLandingT } from '../../i18n/landing';
import { SelectField, TextField } from '../../ui/forms';
import type { QuoteFields } from './useQuote';

const TRUCK_CHOICES = Array.from({ length: MAX_TRUCKS_PER_ORDER }, (_, i) => i + 1);

type LoadValues = Pick<QuoteFields, 'sandType' | 'trucks' | 'distance'>;

/** Sand type, trucks (1 to 20 by dropdown) and the optional distance: the fields every quote needs. */
export function LoadFields({
  value,
  onChange,
}: {
  value: LoadValues;
  onChange: (patch: Partial<LoadValues>) => void;
}) {
  const { t } = useLandingT();
  return (
    <>
      <SelectField
        label={t('quote.sandType')}
        name="sandType"
        value={value.sandType}
        onChange={(e) => onChange({ sandType: e.target.value as LoadValues['sandType'] })}
      >
        {SAND_TYPES.map((sand) => (
          <option key={sand} value={sand}>
            {t(`quote.sandOptions.${sand}`)}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t('quote.trucks')}
        name="trucks"
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
        label={t('quote.distance')}
        name="distance"
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
