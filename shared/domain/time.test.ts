import { describe, expect, it } from 'vitest';
import {
  addDays,
  dayRange,
  lastDaysRange,
  localDate,
  offsetMinutes,
  startOfLocalDate,
  weekRange,
} from './time';

describe('business time (Africa/Nairobi, UTC+3)', () => {
  it.each([
    ['2026-11-23T20:59:59Z', '2026-11-23'],
    ['2026-11-23T21:00:00Z', '2026-11-24'],
    ['2026-01-01T00:30:00Z', '2026-01-01'],
  ])('%s is local date %s', (iso, date) => expect(localDate(new Date(iso))).toBe(date));

  it('has a +180 minute offset in every season', () => {
    expect(offsetMinutes(new Date('2026-01-15T12:00:00Z'))).toBe(180);
    expect(offsetMinutes(new Date('2026-07-15T12:00:00Z'))).toBe(180);
    expect(offsetMinutes(new Date('2026-07-15T12:00:00Z'), 'UTC')).toBe(0);
  });

  it('starts a local day at 21:00 UTC the evening before', () => {
    expect(startOfLocalDate('2026-11-24').toISOString()).toBe('2026-11-23T21:00:00.000Z');
  });

  it('computes day, last-7-days and Monday weeks', () => {
    const now = new Date('2026-11-26T10:00:00Z'); // Thursday in Nairobi
    expect(dayRange(now)).toEqual({
      date: '2026-11-26',
      start: new Date('2026-11-25T21:00:00Z'),
      end: new Date('2026-11-26T21:00:00Z'),
    });
    expect(lastDaysRange(now, 7).start.toISOString()).toBe('2026-11-19T21:00:00.000Z');
    expect(weekRange(now)).toEqual({
      start: new Date('2026-11-22T21:00:00Z'),
      end: new Date('2026-11-29T21:00:00Z'),
    });
    expect(weekRange(now, 1).start.toISOString()).toBe('2026-11-15T21:00:00.000Z');
    // Sunday late evening in Nairobi still belongs to the week that began on Monday.
    expect(weekRange(new Date('2026-11-29T20:30:00Z')).start.toISOString()).toBe('2026-11-22T21:00:00.000Z');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
  });
});
