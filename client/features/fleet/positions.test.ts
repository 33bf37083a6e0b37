import { describe, expect, it } from 'vitest';
import { boundsOf, freshness, groupOverlapping } from './positions';

const now = new Date('2026-11-23T10:00:00Z');
const ago = (min: number) => new Date(now.getTime() - min * 60_000).toISOString();

describe('what a last report still says', () => {
  it.each([
    ['a fresh report above 5 km/h is moving', 46.3, ago(1), { stale: false, moving: true, silentFor: null }],
    ['a fresh report at 3 km/h is not moving', 3, ago(1), { stale: false, moving: false, silentFor: null }],
    ['five minutes is still fresh', 46.3, ago(5), { stale: false, moving: true, silentFor: null }],
    [
      '31 minutes of silence is stale: no speed, not moving',
      46.3,
      ago(31),
      { stale: true, moving: false, silentFor: '31 min' },
    ],
    ['hours of silence', 0, ago(185), { stale: true, moving: false, silentFor: '3 h' }],
    [
      'no report at all is not stale, just unknown',
      null,
      null,
      { stale: false, moving: false, silentFor: null },
    ],
  ])('%s', (_, speed, lastUpdated, expected) => {
    expect(freshness({ speed, lastUpdated }, now)).toEqual(expected);
  });

  it.each([
    [ago(31), '31 min', 'dakika 31'],
    [ago(185), '3 h', 'saa 3'],
    [ago(3 * 24 * 60), '3 days', 'siku 3'],
  ])('a silence of %s in the screen language', (lastUpdated, en, sw) => {
    expect(freshness({ speed: 0, lastUpdated }, now, 'en').silentFor).toBe(en);
    expect(freshness({ speed: 0, lastUpdated }, now, 'sw').silentFor).toBe(sw);
  });
});

describe('bounds of the fleet', () => {
  it('spans every truck', () =>
    expect(
      boundsOf([
        { lng: 37.07, lat: -1.03 },
        { lng: 36.82, lat: -1.29 },
        { lng: 37.01, lat: -1.1 },
      ]),
    ).toEqual([
      [36.82, -1.29],
      [37.07, -1.03],
    ]));
  it('is a point for one truck and nothing for none', () => {
    expect(boundsOf([{ lng: 37, lat: -1 }])).toEqual([
      [37, -1],
      [37, -1],
    ]);
    expect(boundsOf([])).toBeNull();
  });
});

describe('overlapping markers', () => {
  it('groups labels that would collide and keeps the others apart', () => {
    const groups = groupOverlapping(
      [
        { key: 'a', x: 100, y: 100 },
        { key: 'b', x: 130, y: 110 },
        { key: 'c', x: 300, y: 100 },
        { key: 'd', x: 100, y: 160 },
      ],
      80,
      28,
    );
    expect(groups.map((g) => g.keys)).toEqual([['a', 'b'], ['c'], ['d']]);
  });
});
