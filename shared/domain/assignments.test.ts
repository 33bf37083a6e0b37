import { describe, expect, it } from 'vitest';
import { loadMove, orderStatusForLoads } from './assignments';

describe('loadMove', () => {
  it.each([
    ['SCHEDULED', 'IN_TRANSIT', 'ops', false, 'ok'],
    ['SCHEDULED', 'DELIVERED', 'driver', true, 'ok'],
    ['IN_TRANSIT', 'DELIVERED', 'driver', true, 'ok'],
    ['ARRIVED', 'DELIVERED', 'driver', true, 'ok'],
    ['ARRIVED', 'DELIVERED', 'ops', true, 'ok'],
    ['IN_TRANSIT', 'CANCELLED', 'ops', false, 'ok'],
    ['ARRIVED', 'CANCELLED', 'ops', false, 'ok'],
    ['IN_TRANSIT', 'CANCELLED', 'driver', false, 'driver-cannot-cancel'],
    ['DELIVERED', 'IN_TRANSIT', 'ops', false, 'not-allowed'],
    ['CANCELLED', 'SCHEDULED', 'ops', false, 'not-allowed'],
    ['IN_TRANSIT', 'SCHEDULED', 'ops', false, 'not-allowed'],
    ['DELIVERED', 'DELIVERED', 'driver', true, 'same'],
    // A driver delivers only with a proof of delivery; operations may mark it by hand (flagged).
    ['IN_TRANSIT', 'DELIVERED', 'ops', false, 'ok'],
    ['SCHEDULED', 'DELIVERED', 'ops', false, 'ok'],
    ['IN_TRANSIT', 'DELIVERED', 'driver', false, 'needs-proof'],
    ['ARRIVED', 'DELIVERED', 'driver', false, 'needs-proof'],
    ['SCHEDULED', 'DELIVERED', 'geofence', false, 'needs-proof'],
    // ARRIVED sits between IN_TRANSIT and DELIVERED.
    ['IN_TRANSIT', 'ARRIVED', 'driver', false, 'ok'],
    ['SCHEDULED', 'ARRIVED', 'ops', false, 'ok'],
    ['ARRIVED', 'IN_TRANSIT', 'ops', false, 'ok'],
    ['ARRIVED', 'IN_TRANSIT', 'driver', false, 'only-forward'],
    ['ARRIVED', 'SCHEDULED', 'ops', false, 'not-allowed'],
    // Geofences move loads forward only, never cancel or deliver.
    ['SCHEDULED', 'IN_TRANSIT', 'geofence', false, 'ok'],
    ['IN_TRANSIT', 'ARRIVED', 'geofence', false, 'ok'],
    ['SCHEDULED', 'ARRIVED', 'geofence', false, 'ok'],
    ['ARRIVED', 'IN_TRANSIT', 'geofence', false, 'only-forward'],
    ['IN_TRANSIT', 'CANCELLED', 'geofence', false, 'not-allowed'],
    ['ARRIVED', 'DELIVERED', 'geofence', true, 'not-allowed'],
  ] as const)('%s → %s by %s (proof %s): %s', (from, to, actor, proof, verdict) =>
    expect(loadMove(from, to, actor, proof)).toBe(verdict),
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
    ['RECEIVED', 2, ['ARRIVED', 'SCHEDULED'], 'IN_TRANSIT'],
    ['IN_TRANSIT', 1, ['ARRIVED'], 'IN_TRANSIT'],
    ['IN_TRANSIT', 2, ['DELIVERED', 'ARRIVED'], 'IN_TRANSIT'],
    ['IN_TRANSIT', 2, ['DELIVERED', 'DELIVERED', 'ARRIVED'], 'DELIVERED'],
  ] as const)('%s with %i trucks and 20 t loads %j → %s', (current, trucks, loads, expected) =>
    expect(
      orderStatusForLoads(
        current,
        trucks,
        loads.map((status) => ({ status, tonnes: 20 })),
      ),
    ).toBe(expected),
  );

  it.each([
    // Two trucks' worth (40 t) carried by three smaller loads: delivered only when all 40 t are.
    [
      2,
      [
        ['DELIVERED', 15],
        ['DELIVERED', 15],
        ['SCHEDULED', 10],
      ],
      'IN_TRANSIT',
    ],
    [
      2,
      [
        ['DELIVERED', 15],
        ['DELIVERED', 15],
        ['DELIVERED', 10],
      ],
      'DELIVERED',
    ],
    [
      1,
      [
        ['DELIVERED', 6.67],
        ['DELIVERED', 6.67],
        ['DELIVERED', 6.66],
      ],
      'DELIVERED',
    ],
    // One truck ordered, split in three loads: the first delivered load does not close it.
    [
      1,
      [
        ['DELIVERED', 6.67],
        ['SCHEDULED', 6.67],
        ['SCHEDULED', 6.66],
      ],
      'IN_TRANSIT',
    ],
    // A load per truck ordered and nothing else open: delivered (a 19 t truck delivers a truck).
    [
      2,
      [
        ['DELIVERED', 20],
        ['DELIVERED', 19],
      ],
      'DELIVERED',
    ],
    [
      2,
      [
        ['DELIVERED', 20],
        ['CANCELLED', 20],
      ],
      'IN_TRANSIT',
    ],
    // A load at the site is still open: a load per truck delivered does not close the order yet.
    [
      2,
      [
        ['DELIVERED', 20],
        ['DELIVERED', 10],
        ['ARRIVED', 10],
      ],
      'IN_TRANSIT',
    ],
  ] as const)(
    '%i trucks, loads %j → %s (by tonnes, and a load per truck once nothing is open)',
    (trucks, loads, expected) =>
      expect(
        orderStatusForLoads(
          'RECEIVED',
          trucks,
          loads.map(([status, tonnes]) => ({ status, tonnes })),
        ),
      ).toBe(expected),
  );
});
