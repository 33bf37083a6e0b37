import { BUSINESS_TIME_ZONE, BUSINESS_UTC_OFFSET_MINUTES } from '../constants';
import { businessTime, twoDigits } from './business-clock';

// Building an Intl.DateTimeFormat costs far more than formatting with one (tens of µs each: a third of
// the driver dashboard's own time at 1 M orders): one of each kind per time zone, made on first use.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const offsetFormats = new Map<string, Intl.DateTimeFormat>();

function formatOf(
  cache: Map<string, Intl.DateTimeFormat>,
  timeZone: string,
  make: () => Intl.DateTimeFormat,
) {
  let format = cache.get(timeZone);
  if (!format) {
    format = make();
    cache.set(timeZone, format);
  }
  return format;
}

/** The calendar date (YYYY-MM-DD) of an instant in a time zone. */
export function localDate(at: Date, timeZone = BUSINESS_TIME_ZONE): string {
  // Nairobi's from its fixed offset (no Intl: shared/domain/business-clock.ts).
  const t = timeZone === BUSINESS_TIME_ZONE ? businessTime(at.getTime()) : null;
  if (t) return `${t.year}-${twoDigits(t.month)}-${twoDigits(t.day)}`;
  return formatOf(
    dateFormats,
    timeZone,
    () => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
  ).format(at);
}

/** The zone's UTC offset at an instant, in minutes (Africa/Nairobi: +180 all year). */
export function offsetMinutes(at: Date, timeZone = BUSINESS_TIME_ZONE): number {
  if (timeZone === BUSINESS_TIME_ZONE && businessTime(at.getTime())) return BUSINESS_UTC_OFFSET_MINUTES;
  const name = formatOf(
    offsetFormats,
    timeZone,
    () => new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }),
  )
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name ?? '');
  if (!m) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

/** The instant a local calendar date starts in the zone. */
export function startOfLocalDate(date: string, timeZone = BUSINESS_TIME_ZONE): Date {
  const guess = new Date(`${date}T00:00:00Z`);
  return new Date(guess.getTime() - offsetMinutes(guess, timeZone) * 60_000);
}

/**
 * Orders two ISO 8601 instants written alike (as the API sends them) by time: as text, code unit by code
 * unit. localeCompare would make an Intl collator for it, the first of which costs a page tens of ms.
 */
export function compareIso(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** [start, end) of the business day containing `now`. */
export function dayRange(now: Date, timeZone = BUSINESS_TIME_ZONE): { start: Date; end: Date; date: string } {
  const date = localDate(now, timeZone);
  return { start: startOfLocalDate(date, timeZone), end: startOfLocalDate(addDays(date, 1), timeZone), date };
}

/** [start, end) of the last `days` business days, today included. */
export function lastDaysRange(
  now: Date,
  days: number,
  timeZone = BUSINESS_TIME_ZONE,
): { start: Date; end: Date } {
  const today = localDate(now, timeZone);
  return {
    start: startOfLocalDate(addDays(today, -(days - 1)), timeZone),
    end: startOfLocalDate(addDays(today, 1), timeZone),
  };
}

/** [start, end) of the business week (Monday first) containing `now`, shifted by `weeksBack`. */
export function weekRange(
  now: Date,
  weeksBack = 0,
  timeZone = BUSINESS_TIME_ZONE,
): { start: Date; end: Date } {
  const today = localDate(now, timeZone);
  const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday = 0
  const monday = addDays(today, -weekday - 7 * weeksBack);
  return { start: startOfLocalDate(monday, timeZone), end: startOfLocalDate(addDays(monday, 7), timeZone) };
}
