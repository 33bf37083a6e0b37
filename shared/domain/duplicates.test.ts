import { describe, expect, it } from 'vitest';
import { findCostDuplicate, findFuelDuplicate, mileageSince } from './duplicates';

const t0 = new Date('2026-11-23T08:00:00Z');
const h = (hours: number) => new Date(t0.getTime() + hours * 3600_000);

describe('findCostDuplicate', () => {
  const existing = [
    { id: 1, truckId: 'T1', type: 'REPAIR', amountCents: 500_000, incurredAt: t0, voidedAt: null },
    { id: 2, truckId: 'T1', type: 'REPAIR', amountCents: 700_000, incurredAt: t0, voidedAt: h(1) },
  ];
  it.each([
    [{ truckId: 'T1', type: 'REPAIR', amountCents: 500_000, incurredAt: h(23.9) }, 1],
    [{ truckId: 'T1', type: 'REPAIR', amountCents: 500_000, incurredAt: h(-10) }, 1],
    [{ truckId: 'T1', type: 'REPAIR', amountCents: 500_000, incurredAt: h(24.1) }, undefined],
    [{ truckId: 'T2', type: 'REPAIR', amountCents: 500_000, incurredAt: h(1) }, undefined],
    [{ truckId: 'T1', type: 'SALARY', amountCents: 500_000, incurredAt: h(1) }, undefined],
    [{ truckId: 'T1', type: 'REPAIR', amountCents: 500_001, incurredAt: h(1) }, undefined],
    [{ truckId: 'T1', type: 'REPAIR', amountCents: 700_000, incurredAt: h(1) }, undefined],
  ])('%j → %s', (candidate, id) => expect(findCostDuplicate(candidate, existing)?.id).toBe(id));
});

describe('findFuelDuplicate', () => {
  const existing = [
    {
      id: 1,
      truckId: 'T1',
      odometer: 10_500,
      litres: 80,
      costCents: 1_400_000,
      capturedAt: t0,
      voidedAt: null,
    },
    {
      id: 2,
      truckId: 'T1',
      odometer: 11_000,
      litres: 60,
      costCents: 1_000_000,
      capturedAt: t0,
      voidedAt: h(1),
    },
  ];
  it.each([
    [{ truckId: 'T1', odometer: 10_500, litres: 20, costCents: 1, capturedAt: h(100) }, 1],
    [{ truckId: 'T1', odometer: 10_600, litres: 80, costCents: 1_400_000, capturedAt: h(5.9) }, 1],
    [{ truckId: 'T1', odometer: null, litres: 80, costCents: 1_400_000, capturedAt: h(-3) }, 1],
    [{ truckId: 'T1', odometer: 10_600, litres: 80, costCents: 1_400_000, capturedAt: h(6.1) }, undefined],
    [{ truckId: 'T1', odometer: 10_600, litres: 80, costCents: 1_400_001, capturedAt: h(1) }, undefined],
    [{ truckId: 'T2', odometer: 10_500, litres: 80, costCents: 1_400_000, capturedAt: t0 }, undefined],
    [{ truckId: 'T1', odometer: 11_000, litres: 1, costCents: 1, capturedAt: t0 }, undefined],
    [{ truckId: 'T1', odometer: null, litres: null, costCents: 1_400_000, capturedAt: t0 }, undefined],
  ])('%j → %s', (candidate, id) => expect(findFuelDuplicate(candidate, existing)?.id).toBe(id));
});

describe('mileageSince', () => {
  it.each([
    [10_500, 10_000, 500],
    [10_500.25, 10_000, 500.3],
    [10_000, 10_500, null],
    [null, 10_000, null],
    [10_000, null, null],
    [10_000, undefined, null],
    [10_000, 10_000, 0],
  ])('%s since %s → %s', (current, previous, km) => expect(mileageSince(current, previous)).toBe(km));
});
