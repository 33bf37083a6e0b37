import { describe, expect, it } from 'vitest';
import { BUSINESS_TIME_ZONE, BUSINESS_UTC_OFFSET_MINUTES } from '../constants';
import { businessTime, CALENDAR_NAMES } from './business-clock';
import { formatCalendarDay, formatClock, formatDateTime } from './format';
import { localDate, offsetMinutes } from './time';

/** Instants from 1970 to 2100, repeatable (a linear congruential walk), with the turns of days and years. */
function instants(count: number): number[] {
  const from = Date.UTC(1970, 0, 1);
  const span = Date.UTC(2100, 0, 1) - from;
  const out = [
    from,
    Date.UTC(2026, 11, 31, 20, 59),
    Date.UTC(2026, 11, 31, 21, 0),
    Date.UTC(2028, 1, 28, 21, 0),
  ];
  let x = 28;
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(from + Math.floor((x / 2147483648) * span));
  }
  return out;
}

const intlLocale = { en: 'en-KE', sw: 'sw-KE' } as const;

describe('the business clock', () => {
  it("keeps Nairobi's offset as the zone data has it, every day from 1970 to 2100", () => {
    const offset = new Intl.DateTimeFormat('en-US', {
      timeZone: BUSINESS_TIME_ZONE,
      timeZoneName: 'longOffset',
    });
    const wrong: string[] = [];
    for (let at = Date.UTC(1970, 0, 1); at < Date.UTC(2100, 0, 1); at += 86_400_000 * 7) {
      const name = offset.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value;
      if (name !== 'GMT+03:00') wrong.push(`${new Date(at).toISOString()}: ${name}`);
    }
    expect(wrong).toEqual([]);
    expect(BUSINESS_UTC_OFFSET_MINUTES).toBe(180);
  });

  it('leaves to Intl what is before 1970, after 9999, or not a time', () => {
    expect(businessTime(Date.UTC(1969, 11, 31))).toBeNull();
    expect(businessTime(Date.UTC(10000, 0, 1))).toBeNull();
    expect(businessTime(Number.NaN)).toBeNull();
    expect(formatDateTime(Date.UTC(1950, 5, 1, 12))).toBe(
      new Intl.DateTimeFormat('en-KE', {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: BUSINESS_TIME_ZONE,
      }).format(Date.UTC(1950, 5, 1, 12)),
    );
    expect(() => formatDateTime('not a date')).toThrow(RangeError);
    expect(() => formatCalendarDay('2026-02-32')).toThrow(RangeError);
  });

  it.each(['en', 'sw'] as const)('names every month and weekday as Intl does in %s', (locale) => {
    const names = CALENDAR_NAMES[locale];
    const tag = intlLocale[locale];
    for (let m = 0; m < 12; m++) {
      const at = Date.UTC(2026, m, 10);
      expect(names.monthsShort[m]).toBe(
        new Intl.DateTimeFormat(tag, { month: 'short', timeZone: 'UTC' }).format(at),
      );
      expect(names.monthsLong[m]).toBe(
        new Intl.DateTimeFormat(tag, { month: 'long', timeZone: 'UTC' }).format(at),
      );
    }
    for (let d = 0; d < 7; d++) {
      const at = Date.UTC(2026, 1, 1 + d); // 1 February 2026 is a Sunday
      expect(names.weekdays[d]).toBe(
        new Intl.DateTimeFormat(tag, { weekday: 'long', timeZone: 'UTC' }).format(at),
      );
    }
  });

  it.each(['en', 'sw'] as const)(
    'writes dates and times as Intl does in %s, for 20,000 instants',
    (locale) => {
      const tag = intlLocale[locale];
      const zone = { timeZone: BUSINESS_TIME_ZONE };
      const medium = new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short', ...zone });
      const short = new Intl.DateTimeFormat(tag, { dateStyle: 'short', timeStyle: 'short', ...zone });
      const clock = new Intl.DateTimeFormat(tag, {
        hour: '2-digit',
        minute: '2-digit',
        hour12: false,
        ...zone,
      });
      const day = new Intl.DateTimeFormat(tag, {
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        timeZone: 'UTC',
      });
      const isoDate = new Intl.DateTimeFormat('en-CA', {
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        ...zone,
      });
      const wrong: string[] = [];
      for (const at of instants(20_000)) {
        const date = new Date(at);
        const checks: Array<[string, string]> = [
          [formatDateTime(at, 'medium', locale), medium.format(at)],
          [formatDateTime(date.toISOString(), 'short', locale), short.format(at)],
          [formatClock(date, locale), clock.format(at)],
          [localDate(date), isoDate.format(at)],
          [
            formatCalendarDay(date.toISOString().slice(0, 10), locale),
            day.format(Date.parse(date.toISOString().slice(0, 10))),
          ],
        ];
        for (const [ours, intl] of checks)
          if (ours !== intl) wrong.push(`${date.toISOString()}: ${ours} ≠ ${intl}`);
        if (offsetMinutes(date) !== 180) wrong.push(`${date.toISOString()}: offset ${offsetMinutes(date)}`);
      }
      expect(wrong.slice(0, 5)).toEqual([]);
    },
  );
});
