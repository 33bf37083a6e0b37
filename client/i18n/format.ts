import {
  formatCalendarDay,
  formatClock,
  formatDateTime,
  formatDecimals,
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
/** What useFormat gives: `t` and the screen language's formatters and labels. */
export type Format = ReturnType<typeof useFormat>;

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
    /** "20.0": exactly `digits` decimals. */
    decimals: (n: number, digits: number) => formatDecimals(n, digits, locale),
    tonnes: (tonnes: number) => formatTonnes(tonnes, locale),
    km: (km: number) => formatKm(km, locale),
    duration: (minutes: number) => formatDuration(minutes, locale),
    clock: (at: Date) => formatClock(at, locale),
    dateTime: (at: Date | string | number, style: 'medium' | 'short' = 'medium') =>
      formatDateTime(at, style, locale),
    /** "Sunday, 22 November" / "Jumapili, 22 Novemba": a business calendar date (YYYY-MM-DD). */
    calendarDay: (date: string) => formatCalendarDay(date, locale),
    /** "Awaiting Payment" / "Inasubiri malipo". */
    orderStatus: (status: string) => statusLabel(tr, 'order', status),
    /** A payment's state as a word (Pending when absent). */
    paymentStatus: (status: string | null | undefined) => statusLabel(tr, 'payment', status),
    /** A load's state as a word: "In Transit" / "Njiani". */
    loadStatus: (status: string) => statusLabel(tr, 'load', status),
    /** How a distance was found: "geocoded", "manual distance"… */
    distanceSource: (source: string | null | undefined) => statusLabel(tr, 'distance', source),
    /** "Coarse" / "Mchanga mkubwa" (never "kokoto": in Kenya that is ballast). */
    sandType: (sand: string) => statusLabel(tr, 'sand', sand),
  };
}

/**
 * `dateTime` of useFormat alone: an instant in Nairobi time in the screen's language ("6 Des 2026, 13:30"
 * in Kiswahili), for screens whose words come from useStaffT.
 */
export function useDateTime(): Format['dateTime'] {
  return useFormat().dateTime;
}
