import { describe, expect, it } from 'vitest';
import { eachDate, margin, resolveRange } from './finance';

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
