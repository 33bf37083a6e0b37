import { describe, expect, it } from 'vitest';
import { haversineKm } from './distance';
import { pointAlong, routeLengthKm, THIKA_ROAD } from './route';

describe('pointAlong', () => {
  const length = routeLengthKm(THIKA_ROAD);
  it('starts at Thika, reaches Kasarani at the route length and comes back', () => {
    expect(length).toBeGreaterThan(25);
    expect(length).toBeLessThan(35);
    expect(haversineKm(pointAlong(THIKA_ROAD, 0), THIKA_ROAD[0]!)).toBeLessThan(0.01);
    expect(haversineKm(pointAlong(THIKA_ROAD, length), THIKA_ROAD.at(-1)!)).toBeLessThan(0.01);
    expect(haversineKm(pointAlong(THIKA_ROAD, 2 * length), THIKA_ROAD[0]!)).toBeLessThan(0.01);
  });
  it('moves about the distance asked', () => {
    const a = pointAlong(THIKA_ROAD, 3);
    const b = pointAlong(THIKA_ROAD, 4);
    expect(haversineKm(a, b)).toBeGreaterThan(0.8);
    expect(haversineKm(a, b)).toBeLessThanOrEqual(1.0001);
  });
  it('heads south-west going out and north-east coming back', () => {
    expect(pointAlong(THIKA_ROAD, 5).bearing).toBeGreaterThan(180);
    expect(pointAlong(THIKA_ROAD, 2 * length - 5).bearing).toBeLessThan(90);
  });
});
