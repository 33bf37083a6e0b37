import { DISTANCE_SOURCES } from '../../shared/enums';

/**
 * State labels from the catalog (`status.*` in landing-en.ts, so the landing page's own `t` has them as
 * well as i18next): works with either `t`, both of which answer a missing key with the key itself. A
 * state the catalog does not know is shown as given. The catalog's maps are keyed by shared/enums.ts's
 * tuples, so a new state without a label fails typecheck there.
 */
type Translate = (key: string) => string;
export type StatusGroup = 'order' | 'payment' | 'load' | 'distance' | 'sand';

const isDistanceSource = (code: string | null | undefined) =>
  !!code && (DISTANCE_SOURCES as readonly string[]).includes(code);

export function statusLabel(t: Translate, group: StatusGroup, code: string | null | undefined): string {
  const shown =
    group === 'distance'
      ? isDistanceSource(code)
        ? code!
        : 'estimated'
      : group === 'payment'
        ? code || 'PENDING'
        : (code ?? '');
  if (!shown) return '';
  const key = `status.${group}.${shown}`;
  const text = t(key);
  return text && text !== key ? text : shown;
}
