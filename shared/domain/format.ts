import { BUSINESS_TIME_ZONE } from '../constants';
import type { Language } from '../enums';
import { fromCents, toCents } from './money';

/** The screens' languages: English and Kiswahili (both as written in Kenya). */
export type Locale = Language;
/** The Intl locale for a screen language: en-KE or sw-KE. */
export const intlLocale = (locale: Locale = 'en'): string => (locale === 'sw' ? 'sw-KE' : 'en-KE');

/**
 * Each formatter is made on first use, then kept: making an Intl formatter loads locale and time zone
 * data, and making all of them as this module loaded cost a cold staff screen ~80 ms of main thread on a
 * desktop CPU before its first render (issue 28), most of them for formats the screen never shows.
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let f = formatters.get(key);
  if (!f) {
    f = make();
    formatters.set(key, f);
  }
  return f as T;
}

/** "1,234.5" — tonnes, litres, kilometres and counts with en-KE (or sw-KE) separators (up to 3 decimals). */
export function formatNumber(n: number, locale: Locale = 'en'): string {
  return cached(`n:${locale}`, () => new Intl.NumberFormat(intlLocale(locale))).format(n);
}

const MINUS = '\u2212';

/**
 * The one KES formatter: screens, Telegram alerts, chat answers, briefings and documents all show money
 * with it, so one amount reads the same everywhere. "KES 32,000"; cents only when the value has them, and
 * then always two ("KES 93,001.50": never rounded away); a negative amount as "−KES 201,280" (a true
 * minus sign before the currency). Cents from the database go through fromCents (shared/domain/money.ts).
 */
export function formatMoney(amount: number, locale: Locale = 'en'): string {
  const figure = formatMoneyFigure(Math.abs(amount), locale);
  return `${amount < 0 && figure !== '0' ? MINUS : ''}KES ${figure}`;
}

/** "8,500.50": formatMoney's figure without currency or sign, for a label that already says "KES". */
export function formatMoneyFigure(amount: number, locale: Locale = 'en'): string {
  const cents = toCents(Math.abs(amount));
  const whole = cents % 100 === 0;
  const f = whole
    ? cached(`mw:${locale}`, () => new Intl.NumberFormat(intlLocale(locale), { maximumFractionDigits: 0 }))
    : cached(
        `mc:${locale}`,
        () =>
          new Intl.NumberFormat(intlLocale(locale), { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
      );
  return f.format(fromCents(cents));
}

/** "KES 45K", "−KES 1.2M": chart ticks, where a short label beats the exact figure. */
export function formatMoneyCompact(amount: number): string {
  const compact = cached(
    'compact',
    () => new Intl.NumberFormat('en-KE', { notation: 'compact', maximumFractionDigits: 1 }),
  );
  return `${amount < 0 ? MINUS : ''}KES ${compact.format(Math.abs(amount))}`;
}

/** "1 active load", "3 active loads", "2 duplicate entries": the count with its noun in the right number. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}

/** "20 t", "1,250.5 t" (the same symbol in Kiswahili, "tani" being its word). */
export function formatTonnes(tonnes: number, locale: Locale = 'en'): string {
  return `${formatNumber(tonnes, locale)} t`;
}

/**
 * "< 1 min", "31 min", "5 h", "3 days": how long something has waited or been silent. In Kiswahili the
 * unit comes first: "chini ya dakika 1", "dakika 31", "saa 5", "siku 3".
 */
export function formatDuration(minutes: number, locale: Locale = 'en'): string {
  if (locale === 'sw') {
    if (minutes < 1) return 'chini ya dakika 1';
    if (minutes < 60) return `dakika ${Math.floor(minutes)}`;
    const hours = minutes / 60;
    if (hours < 48) return `saa ${formatNumber(Math.round(hours), locale)}`;
    return `siku ${formatNumber(Math.round(hours / 24), locale)}`;
  }
  if (minutes < 1) return '< 1 min';
  if (minutes < 60) return `${Math.floor(minutes)} min`;
  const hours = minutes / 60;
  if (hours < 48) return `${Math.round(hours)} h`;
  return plural(Math.round(hours / 24), 'day');
}

/** "12 km", "12.3 km" (one decimal at most; Kiswahili with sw-KE separators). */
export function formatKm(km: number, locale: Locale = 'en'): string {
  if (locale === 'en') return `${Number.isInteger(km) ? km : km.toFixed(1)} km`;
  const f = cached(
    `km:${locale}`,
    () => new Intl.NumberFormat(intlLocale(locale), { maximumFractionDigits: 1 }),
  );
  return `${f.format(km)} km`;
}

/** "14:05" — the time of day in Nairobi. */
export function formatClock(at: Date, locale: Locale = 'en'): string {
  return cached(
    `c:${locale}`,
    () =>
      new Intl.DateTimeFormat(intlLocale(locale), {
        timeZone: BUSINESS_TIME_ZONE,
        hour: '2-digit',
        minute: '2-digit',
        hour12: false,
      }),
  ).format(at);
}

/**
 * "Sunday, 22 November" — a business calendar date (YYYY-MM-DD, already a Nairobi date), so it is read
 * at UTC midnight and never shifted by the reader's zone.
 */
export function formatCalendarDay(date: string, locale: Locale = 'en'): string {
  const f = cached(
    `d:${locale}`,
    () =>
      new Intl.DateTimeFormat(intlLocale(locale), {
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        timeZone: 'UTC',
      }),
  );
  return f.format(new Date(`${date}T00:00:00Z`));
}

/**
 * "23 Nov 2026, 10:40" — an instant in Nairobi time, whatever the viewer's zone. `short`
 * ("23/11/2026, 10:40") is for dense tables.
 */
export function formatDateTime(
  at: Date | string | number,
  style: 'medium' | 'short' = 'medium',
  locale: Locale = 'en',
): string {
  const f = cached(
    `t:${style}:${locale}`,
    () =>
      new Intl.DateTimeFormat(intlLocale(locale), {
        dateStyle: style,
        timeStyle: 'short',
        timeZone: BUSINESS_TIME_ZONE,
      }),
  );
  return f.format(at instanceof Date ? at : new Date(at));
}

/** A file size as a person reads it: 950 B, 4.7 MB, 1.2 GB (decimal units, one decimal from kB up). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${units[unit]}`;
}
