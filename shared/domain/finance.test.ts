import { describe, expect, it } from 'vitest';
import { eachDate, margin, resolveRange, splitMonths } from './finance';

describe('margin', () => {
  it.each([
    [25, 100, 25],
    [1, 3, 33.3],
    [2, 3, 66.7],
    [-50, 100, -50],
    [10, 0, null],
  ])('%s / %s → %s', (gross, revenue, pct) => expect(margin(gross, revenue)).toBe(pct));
});

describe('resolveRange', () => {
  it.each([
    [undefined, undefined, { from: '2026-10-25', to: '2026-11-23' }],
    ['2026-11-01', undefined, { from: '2026-11-01', to: '2026-11-23' }],
    ['2026-11-01', '2026-11-01', { from: '2026-11-01', to: '2026-11-01' }],
    ['2026-11-02', '2026-11-01', null],
    ['2025-01-01', '2026-11-01', null],
  ])('%s..%s', (from, to, expected) => expect(resolveRange('2026-11-23', from, to)).toEqual(expected));

  it('lists every date', () =>
    expect(eachDate('2026-02-27', '2026-03-02')).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ]));
});

describe('splitMonths', () => {
  const M = (a: string, b: string) => [a, b];
  it.each([
    // Within one month: only days.
    ['2026-11-05', '2026-11-20', { months: null, before: M('2026-11-05', '2026-11-20'), after: null }],
    ['2026-11-01', '2026-11-29', { months: null, before: M('2026-11-01', '2026-11-29'), after: null }],
    // Across a month end without a whole month.
    ['2026-10-15', '2026-11-14', { months: null, before: M('2026-10-15', '2026-11-14'), after: null }],
    // Exactly one whole month, and whole months with no days at either end.
    ['2026-11-01', '2026-11-30', { months: M('2026-11-01', '2026-12-01'), before: null, after: null }],
    ['2026-02-01', '2026-02-28', { months: M('2026-02-01', '2026-03-01'), before: null, after: null }],
    ['2025-12-01', '2026-02-28', { months: M('2025-12-01', '2026-03-01'), before: null, after: null }],
    // 365 days: days, eleven whole months, days.
    [
      '2025-11-27',
      '2026-11-26',
      {
        months: M('2025-12-01', '2026-11-01'),
        before: M('2025-11-27', '2025-11-30'),
        after: M('2026-11-01', '2026-11-26'),
      },
    ],
    // A range starting on the 31st of a month, across a year end and into a leap February.
    [
      '2027-12-31',
      '2028-03-02',
      {
        months: M('2028-01-01', '2028-03-01'),
        before: M('2027-12-31', '2027-12-31'),
        after: M('2028-03-01', '2028-03-02'),
      },
    ],
    [
      '2028-01-31',
      '2028-02-29',
      { months: M('2028-02-01', '2028-03-01'), before: M('2028-01-31', '2028-01-31'), after: null },
    ],
  ])('%s..%s', (from, to, expected) => expect(splitMonths(from, to)).toEqual(expected));

  it('covers every date of a range exactly once', () => {
    for (const [from, to] of [
      ['2026-01-31', '2026-12-30'],
      ['2026-03-01', '2026-03-01'],
      ['2025-11-27', '2026-11-26'],
    ] as const) {
      const { months, before, after } = splitMonths(from, to);
      const covered = [
        ...(before ? eachDate(before[0], before[1]) : []),
        ...(months ? eachDate(months[0], months[1]).slice(0, -1) : []),
        ...(after ? eachDate(after[0], after[1]) : []),
      ];
      expect(covered).toEqual(eachDate(from, to));
    }
  });
});
