import { describe, expect, it } from 'vitest';
import { barLayout, dayTicks } from './layout';

describe('signed bars', () => {
  it('draws gains right of zero and losses left of it, on one scale', () => {
    const { zero, bars } = barLayout([100, -50], 152);
    expect(zero).toBe(51);
    expect(bars).toEqual([
      { x: 51, width: 100 },
      { x: 1, width: 50 },
    ]);
  });
  it('puts zero on the right when every truck made a loss, with bars running left', () => {
    const { zero, bars } = barLayout([-201280, -58700.5, -3000], 300);
    expect(zero).toBe(299);
    expect(bars[0]).toEqual({ x: 1, width: 298 });
    for (const b of bars) expect(b.x + b.width).toBeCloseTo(299);
    expect(bars[2]!.width).toBeGreaterThan(2);
  });
  it('shows a sliver for zero, and one bar alone fills the width', () => {
    expect(barLayout([0], 100).bars).toEqual([{ x: 1, width: 2 }]);
    expect(barLayout([42], 100).bars).toEqual([{ x: 1, width: 98 }]);
  });
});

describe('day labels', () => {
  const days = (n: number) =>
    Array.from({ length: n }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`);
  it.each([
    [1, 300, ['2026-11-01']],
    [3, 300, ['2026-11-01', '2026-11-02', '2026-11-03']],
  ])('%s day(s) at %s px are all labelled', (n, width, ticks) =>
    expect(dayTicks(days(n), width)).toEqual(ticks),
  );
  it('a month on a phone keeps a few labels, the last day among them', () => {
    const ticks = dayTicks(days(30), 270);
    expect(ticks.length).toBeLessThanOrEqual(5);
    expect(ticks.at(-1)).toBe('2026-11-30');
  });
  it('nothing to label for no data', () => expect(dayTicks([], 300)).toEqual([]));
});
