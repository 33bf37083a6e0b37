import { addDays } from './time';

/** Gross margin in percent to one decimal; null when there is no revenue to divide by. */
export function margin(gross: number, revenue: number): number | null {
  if (!revenue) return null;
  return Math.round((gross / revenue) * 1000) / 10;
}

export const MAX_RANGE_DAYS = 366;

/** A finance range of Nairobi dates: defaults to the last 30 days; refused when reversed or too long. */
export function resolveRange(today: string, from?: string, to?: string): { from: string; to: string } | null {
  const end = to ?? today;
  const start = from ?? addDays(end, -29);
  const days = (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000;
  if (!Number.isFinite(days) || days < 0 || days >= MAX_RANGE_DAYS) return null;
  return { from: start, to: end };
}

/** Every date of the range, so a chart shows quiet days as zero rather than skipping them. */
export function eachDate(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/**
 * A range of dates cut into the whole calendar months inside it ([from, to) of month starts, or null when
 * there is none) and the days before and after them (each [first, last], or null): the truck breakdown
 * reads whole months from the monthly rollup and only these days from the daily one.
 */
export function splitMonths(
  from: string,
  to: string,
): { months: [string, string] | null; before: [string, string] | null; after: [string, string] | null } {
  // The first month start on or after `from`, and the month start after the last whole month.
  const monthsFrom = from.endsWith('-01') ? from : `${addDays(`${from.slice(0, 7)}-01`, 32).slice(0, 7)}-01`;
  const monthsTo = `${addDays(to, 1).slice(0, 7)}-01`;
  if (monthsFrom >= monthsTo) return { months: null, before: [from, to], after: null };
  return {
    months: [monthsFrom, monthsTo],
    before: from < monthsFrom ? [from, addDays(monthsFrom, -1)] : null,
    after: monthsTo <= to ? [monthsTo, to] : null,
  };
}
