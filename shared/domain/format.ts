import { BUSINESS_TIME_ZONE } from '../constants';
import type { Language } from '../enums';
import { type BusinessTime, businessTime, CALENDAR_NAMES, twoDigits, utcFields } from './business-clock';
import { compactText, decimalText, groupThousands } from './decimal-text';
import { toCents } from './money';

/** The screens' languages: English and Kiswahili (both as written in Kenya). */
export type Locale = Language;
/** The Intl locale for a screen language: en-KE or sw-KE. */
export const intlLocale = (locale: Locale = 'en'): string => (locale === 'sw' ? 'sw-KE' : 'en-KE');

/**
 * Figures, dates and times are written out here without Intl (shared/domain/decimal-text.ts and
 * business-clock.ts, held to Intl's output by their tests): the first Intl formatter a page makes costs
 * Chromium ~40 ms of main thread, the longest task of a cold screen on a slow phone (issue 28). Intl
 * writes only what those cannot (a number in exponent form, an instant before 1970, an invalid date,
 * which it refuses as before), each formatter made on first use, then kept.
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
  return (
    decimalText(n, 0, 3) ?? cached(`n:${locale}`, () => new Intl.NumberFormat(intlLocale(locale))).format(n)
  );
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
export function formatMoneyFigure(amount: number, _locale: Locale = 'en'): string {
  // en-KE and sw-KE write an amount alike; the language stays in the call for the day they do not.
  // A whole number of cents, up to the largest safe integer (toCents refuses more).
  const cents = toCents(Math.abs(amount));
  const whole = groupThousands(String(Math.trunc(cents / 100)));
  return cents % 100 === 0 ? whole : `${whole}.${twoDigits(cents % 100)}`;
}

/** "45K", "1.2M", "-3K": a chart tick, where a short label beats the exact figure (as Intl writes it). */
export function formatCompact(value: number): string {
  const figure =
    compactText(Math.abs(value)) ??
    cached(
      'compact',
      () => new Intl.NumberFormat('en-KE', { notation: 'compact', maximumFractionDigits: 1 }),
    ).format(Math.abs(value));
  return `${value < 0 ? '-' : ''}${figure}`;
}

/** "KES 45K", "−KES 1.2M": chart ticks, where a short label beats the exact figure. */
export function formatMoneyCompact(amount: number): string {
  return `${amount < 0 ? MINUS : ''}KES ${formatCompact(Math.abs(amount))}`;
}

/** "20.0", "1,234.5": a figure with exactly `digits` decimals (both languages write it alike). */
export function formatDecimals(n: number, digits: number, locale: Locale = 'en'): string {
  return (
    decimalText(n, digits, digits) ??
    cached(
      `f${digits}:${locale}`,
      () =>
        new Intl.NumberFormat(intlLocale(locale), {
          minimumFractionDigits: digits,
          maximumFractionDigits: digits,
        }),
    ).format(n)
  );
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
  const figure =
    decimalText(km, 0, 1) ??
    cached(
      `km:${locale}`,
      () => new Intl.NumberFormat(intlLocale(locale), { maximumFractionDigits: 1 }),
    ).format(km);
  return `${figure} km`;
}

/** "14:05" of a business time. */
const clockText = (t: BusinessTime) => `${twoDigits(t.hour)}:${twoDigits(t.minute)}`;

/** "14:05" — the time of day in Nairobi. */
export function formatClock(at: Date, locale: Locale = 'en'): string {
  const t = businessTime(at.getTime());
  if (t) return clockText(t);
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
  const at = new Date(`${date}T00:00:00Z`);
  if (!Number.isNaN(at.getTime())) {
    const d = utcFields(at);
    const names = CALENDAR_NAMES[locale];
    return `${names.weekdays[d.weekday]}, ${d.day} ${names.monthsLong[d.month - 1]}`;
  }
  // Intl refuses an invalid date (RangeError), as it always has here.
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
  return f.format(at);
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
  const instant = at instanceof Date ? at : new Date(at);
  const t = businessTime(instant.getTime());
  if (t) {
    const clock = clockText(t);
    return style === 'short'
      ? `${twoDigits(t.day)}/${twoDigits(t.month)}/${t.year}, ${clock}`
      : `${t.day} ${CALENDAR_NAMES[locale].monthsShort[t.month - 1]} ${t.year}, ${clock}`;
  }
  const f = cached(
    `t:${style}:${locale}`,
    () =>
      new Intl.DateTimeFormat(intlLocale(locale), {
        dateStyle: style,
        timeStyle: 'short',
        timeZone: BUSINESS_TIME_ZONE,
      }),
  );
  return f.format(instant);
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
