import { BUSINESS_UTC_OFFSET_MINUTES } from '../constants';
import type { Language } from '../enums';

/**
 * The business's calendar and clock (Nairobi) at an instant, worked out from its fixed UTC offset rather
 * than by Intl: the first Intl formatter a page makes costs Chromium ~40 ms of main thread (~160 ms on a
 * phone 4× slower), and every staff screen shows a date in its first render (issue 28). The server's
 * day ranges use it too. The names are CLDR's for en-KE and sw-KE, as Intl writes them
 * (business-clock.test.ts compares every month and weekday, and tens of thousands of instants).
 */
export interface BusinessTime {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
  hour: number;
  minute: number;
}

/** The first instant worked out here: EAT has been UTC+3 since 1960; earlier ones go to Intl. */
const FIRST = Date.UTC(1970, 0, 1);
/** The last: Intl writes a year of five digits in its own way. */
const LAST = Date.UTC(10000, 0, 1) - BUSINESS_UTC_OFFSET_MINUTES * 60_000;

/** Nairobi's date and time at `ms` (epoch milliseconds), or null outside 1970–9999 or for an invalid one. */
export function businessTime(ms: number): BusinessTime | null {
  if (!(ms >= FIRST && ms < LAST)) return null;
  return utcFields(new Date(ms + BUSINESS_UTC_OFFSET_MINUTES * 60_000));
}

/** The UTC fields of a date (a calendar date read at UTC midnight is its own day). */
export function utcFields(d: Date): BusinessTime {
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    weekday: d.getUTCDay(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
  };
}

/** "07", "12": two digits. */
export const twoDigits = (n: number) => String(n).padStart(2, '0');

/** Month and weekday names as Intl writes them for en-KE and sw-KE. */
export const CALENDAR_NAMES: Record<
  Language,
  { monthsShort: readonly string[]; monthsLong: readonly string[]; weekdays: readonly string[] }
> = {
  en: {
    monthsShort: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'],
    monthsLong: [
      'January',
      'February',
      'March',
      'April',
      'May',
      'June',
      'July',
      'August',
      'September',
      'October',
      'November',
      'December',
    ],
    weekdays: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
  },
  sw: {
    monthsShort: ['Jan', 'Feb', 'Mac', 'Apr', 'Mei', 'Jun', 'Jul', 'Ago', 'Sep', 'Okt', 'Nov', 'Des'],
    monthsLong: [
      'Januari',
      'Februari',
      'Machi',
      'Aprili',
      'Mei',
      'Juni',
      'Julai',
      'Agosti',
      'Septemba',
      'Oktoba',
      'Novemba',
      'Desemba',
    ],
    weekdays: ['Jumapili', 'Jumatatu', 'Jumanne', 'Jumatano', 'Alhamisi', 'Ijumaa', 'Jumamosi'],
  },
};
