import { describe, expect, it } from 'vitest';
import { cycleTimes, medians, slowCause, type TripEvents } from './cycle-times';

const at = (hhmm: string) => new Date(`2026-11-24T${hhmm}:00+03:00`);
const trip: TripEvents = {
  plannedAt: at('07:00'),
  prevYardEntry: at('06:20'),
  yardExit: at('07:25'),
  siteEntry: at('08:10'),
  siteExit: at('08:40'),
  yardEntry: at('09:30'),
};

describe('cycleTimes', () => {
  it.each([
    ['a full trip', {}, { yardWait: 40, loading: 25, travelOut: 45, onSite: 30, return: 50, total: 190 }],
    [
      'truck back after the planned time: no wait',
      { prevYardEntry: at('06:55'), plannedAt: at('06:30') },
      { yardWait: 0, loading: 30, travelOut: 45, onSite: 30, return: 50, total: 155 },
    ],
    [
      'no earlier yard entry: from the planned time',
      { prevYardEntry: null },
      { yardWait: 0, loading: 25, travelOut: 45, onSite: 30, return: 50, total: 150 },
    ],
    [
      'a yard entry from the day before is not this stay',
      { prevYardEntry: new Date('2026-11-23T17:00:00+03:00') },
      { yardWait: 0, loading: 25, travelOut: 45, onSite: 30, return: 50, total: 150 },
    ],
    [
      'not back at the yard yet',
      { yardEntry: null },
      { yardWait: 40, loading: 25, travelOut: 45, onSite: 30, return: null, total: null },
    ],
    [
      'never left the yard by GPS',
      { yardExit: null, siteEntry: null, siteExit: null, yardEntry: null },
      { yardWait: null, loading: null, travelOut: null, onSite: null, return: null, total: null },
    ],
  ] as Array<[string, Partial<TripEvents>, object]>)('%s', (_n, over, expected) =>
    expect(cycleTimes({ ...trip, ...over })).toEqual(expected),
  );
});

describe('medians and causes', () => {
  const a = cycleTimes(trip);
  const b = cycleTimes({ ...trip, siteExit: at('10:05'), yardEntry: at('10:55') });
  const c = cycleTimes({ ...trip, yardEntry: at('09:40') });
  it('medians each phase', () =>
    expect(medians([a, b, c])).toEqual({
      yardWait: 40,
      loading: 25,
      travelOut: 45,
      onSite: 30,
      return: 50,
      total: 200,
    }));
  it('names the phase furthest over its median', () => {
    expect(slowCause(b, medians([a, b, c]))).toBe('time on site 115 min (usually 30)');
    expect(slowCause(a, medians([a, b, c]))).toBeNull();
  });
});
