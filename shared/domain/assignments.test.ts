import { describe, expect, it } from 'vitest';
import { loadMove, loadRevenue, orderStatusForLoads } from './assignments';

describe('loadMove', () => {
  it.each([
    ['SCHEDULED', 'IN_TRANSIT', 'ops', 'ok'],
    ['SCHEDULED', 'DELIVERED', 'driver', 'ok'],
    ['IN_TRANSIT', 'DELIVERED', 'driver', 'ok'],
    ['IN_TRANSIT', 'CANCELLED', 'ops', 'ok'],
    ['IN_TRANSIT', 'CANCELLED', 'driver', 'driver-cannot-cancel'],
    ['DELIVERED', 'IN_TRANSIT', 'ops', 'not-allowed'],
    ['CANCELLED', 'SCHEDULED', 'ops', 'not-allowed'],
    ['IN_TRANSIT', 'SCHEDULED', 'ops', 'not-allowed'],
    ['DELIVERED', 'DELIVERED', 'driver', 'same'],
  ] as const)('%s → %s by %s: %s', (from, to, actor, verdict) =>
    expect(loadMove(from, to, actor)).toBe(verdict),
  );
});

describe('orderStatusForLoads', () => {
  it.each([
    ['RECEIVED', 2, [], 'RECEIVED'],
    ['RECEIVED', 2, ['SCHEDULED'], 'RECEIVED'],
    ['RECEIVED', 2, ['IN_TRANSIT', 'SCHEDULED'], 'IN_TRANSIT'],
    ['IN_TRANSIT', 2, ['DELIVERED', 'SCHEDULED'], 'IN_TRANSIT'],
    ['IN_TRANSIT', 2, ['DELIVERED', 'DELIVERED'], 'DELIVERED'],
    ['IN_TRANSIT', 1, ['CANCELLED'], 'RECEIVED'],
    ['PAYMENT_REVIEW', 1, ['IN_TRANSIT'], 'IN_TRANSIT'],
    ['AWAITING_PAYMENT', 1, ['SCHEDULED'], 'AWAITING_PAYMENT'],
    ['CANCELLED', 1, ['DELIVERED'], 'CANCELLED'],
  ] as const)('%s with %i trucks and loads %j → %s', (current, trucks, loads, expected) =>
    expect(
      orderStatusForLoads(
        current,
        trucks,
        loads.map((status) => ({ status })),
      ),
    ).toBe(expected),
  );
});

describe('loadRevenue', () => {
  it.each([
    [32000, 20, 32000],
    [32000, 10, 16000],
    [33000, 19.5, 32175],
  ])('%s per truck × %s t → %s', (perTruck, tonnes, revenue) =>
    expect(loadRevenue(perTruck, tonnes)).toBe(revenue),
  );
});
