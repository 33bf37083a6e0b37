/**
 * State labels from the catalog (`status.*` in landing-en.ts, so the landing page's own `t` has them as
 * well as i18next): works with either `t`, both of which answer a missing key with the key itself. A
 * state the catalog does not know is shown as given.
 */
type Translate = (key: string) => string;
export type StatusGroup = 'order' | 'payment' | 'load' | 'distance';

const DISTANCE_SOURCES = new Set(['manual', 'geocoded', 'heuristic', 'default']);

export function statusLabel(t: Translate, group: StatusGroup, code: string | null | undefined): string {
  const shown =
    group === 'distance'
      ? code && DISTANCE_SOURCES.has(code)
        ? code
        : 'estimated'
      : group === 'payment'
        ? code || 'PENDING'
        : (code ?? '');
  if (!shown) return '';
  const key = `status.${group}.${shown}`;
  const text = t(key);
  return text && text !== key ? text : shown;
}
