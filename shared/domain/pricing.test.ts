import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICING, perTruckPrice, priceQuote } from './pricing';

describe('perTruckPrice', () => {
  it.each([
    [0, 32_000],
    [10, 32_000],
    [15, 32_000],
    [15.04, 33_000],
    [16, 33_000],
    [20, 33_000],
    [20.5, 34_000],
    [21, 34_000],
    [25, 34_000],
    [26, 35_000],
    [115, 52_000],
  ])('%s km → KES %s', (km, price) => expect(perTruckPrice(DEFAULT_PRICING, km)).toBe(price));

  it('follows the live settings', () => {
    const pricing = { basePrice: 40_000, baseDistanceKm: 10, incrementKm: 2, incrementAmount: 500 };
    expect(perTruckPrice(pricing, 10)).toBe(40_000);
    expect(perTruckPrice(pricing, 11)).toBe(40_500);
    expect(perTruckPrice(pricing, 14.5)).toBe(41_500);
  });
});

describe('priceQuote', () => {
  it.each([
    [
      { distanceKm: 12, trucks: 1 },
      { perTruck: 32_000, total: 32_000, truckCount: 1, distanceKm: 12 },
    ],
    [
      { distanceKm: 12, trucks: 20 },
      { perTruck: 32_000, total: 640_000, truckCount: 20, distanceKm: 12 },
    ],
    [
      { distanceKm: 21, trucks: 2 },
      { perTruck: 34_000, total: 68_000, truckCount: 2, distanceKm: 21 },
    ],
    [
      { distanceKm: 16.04, trucks: 3 },
      { perTruck: 33_000, total: 99_000, truckCount: 3, distanceKm: 16 },
    ],
    [
      { distanceKm: 60, trucks: 2, perTruckOverride: 30_000 },
      { perTruck: 30_000, total: 60_000, truckCount: 2, distanceKm: 60 },
    ],
    [
      { distanceKm: 60, trucks: 3, perTruckOverride: 31_000.5 },
      { perTruck: 31_000.5, total: 93_001.5, truckCount: 3, distanceKm: 60 },
    ],
    [
      { distanceKm: 21, trucks: 1, perTruckOverride: null },
      { perTruck: 34_000, total: 34_000, truckCount: 1, distanceKm: 21 },
    ],
    [
      { distanceKm: 21, trucks: 1, perTruckOverride: 0 },
      { perTruck: 34_000, total: 34_000, truckCount: 1, distanceKm: 21 },
    ],
  ])('%j → %j', (input, expected) => expect(priceQuote(DEFAULT_PRICING, input)).toEqual(expected));
});
