import {
  formatClock,
  formatDateTime,
  formatDuration,
  formatKm,
  formatMoney,
  formatMoneyFigure,
  formatNumber,
  formatTonnes,
  type Locale,
} from '../../shared/domain/format';
import { useTranslation } from './index';
import { statusLabel } from './labels';

/**
 * `t` with the screen language's formatters (shared/domain/format with en-KE or sw-KE) and the status
 * labels of the catalog (`status.*`): the English ones are the spec's, so English screens read as before.
 * A status the catalog does not know is shown as given.
 */
export function useFormat() {
  const { t, i18n } = useTranslation();
  const locale: Locale = i18n.language === 'sw' ? 'sw' : 'en';
  const tr = (key: string) => t(key);
  return {
    t,
    i18n,
    locale,
    money: (amount: number) => formatMoney(amount, locale),
    moneyFigure: (amount: number) => formatMoneyFigure(amount, locale),
    number: (n: number) => formatNumber(n, locale),
    tonnes: (tonnes: number) => formatTonnes(tonnes, locale),
    km: (km: number) => formatKm(km, locale),
    duration: (minutes: number) => formatDuration(minutes, locale),
    clock: (at: Date) => formatClock(at, locale),
    dateTime: (at: Date | string | number, style: 'medium' | 'short' = 'medium') =>
      formatDateTime(at, style, locale),
    /** "Awaiting Payment" / "Inasubiri malipo". */
    orderStatus: (status: string) => statusLabel(tr, 'order', status),
    /** A payment's state: the code in English (spec: PENDING when absent), a word in Kiswahili. */
    paymentStatus: (status: string | null | undefined) => statusLabel(tr, 'payment', status),
    /** A load's state: the code in English, a word in Kiswahili. */
    loadStatus: (status: string) => statusLabel(tr, 'load', status),
    /** How a distance was found: "geocoded", "manual distance"… */
    distanceSource: (source: string | null | undefined) => statusLabel(tr, 'distance', source),
  };
}
