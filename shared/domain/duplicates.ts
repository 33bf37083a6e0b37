/** Duplicate rules (DESIGN.md): voided records never match. */
export const COST_DUPLICATE_WINDOW_MS = 24 * 3600 * 1000;
export const FUEL_DUPLICATE_WINDOW_MS = 6 * 3600 * 1000;

export interface CostLike {
  id?: number;
  truckId: string | null;
  type: string;
  amountCents: number;
  incurredAt: Date;
  voidedAt?: Date | null;
}

/** A cost matches one with the same truck, type and amount incurred within 24 h of it. */
export function findCostDuplicate<T extends CostLike>(candidate: CostLike, existing: T[]): T | undefined {
  return existing
    .filter(
      (e) =>
        !e.voidedAt &&
        e.truckId === candidate.truckId &&
        e.type === candidate.type &&
        e.amountCents === candidate.amountCents &&
        Math.abs(e.incurredAt.getTime() - candidate.incurredAt.getTime()) <= COST_DUPLICATE_WINDOW_MS,
    )
    .sort(
      (a, b) =>
        Math.abs(a.incurredAt.getTime() - candidate.incurredAt.getTime()) -
        Math.abs(b.incurredAt.getTime() - candidate.incurredAt.getTime()),
    )[0];
}

export interface FuelLike {
  id?: number;
  truckId: string;
  odometer: number | null;
  litres: number | null;
  costCents: number;
  capturedAt: Date;
  voidedAt?: Date | null;
}

/** A fuel log matches one of the same truck with the same odometer, or the same litres and cost within 6 h. */
export function findFuelDuplicate<T extends FuelLike>(candidate: FuelLike, existing: T[]): T | undefined {
  return existing.find((e) => {
    if (e.voidedAt || e.truckId !== candidate.truckId) return false;
    if (candidate.odometer !== null && e.odometer !== null && e.odometer === candidate.odometer) return true;
    return (
      candidate.litres !== null &&
      e.litres === candidate.litres &&
      e.costCents === candidate.costCents &&
      Math.abs(e.capturedAt.getTime() - candidate.capturedAt.getTime()) <= FUEL_DUPLICATE_WINDOW_MS
    );
  });
}

/** Km driven since the truck's previous log; unknown when either reading is missing or went backwards. */
export function mileageSince(current: number | null, previous: number | null | undefined): number | null {
  if (current === null || previous === null || previous === undefined) return null;
  const km = current - previous;
  return km >= 0 ? Math.round(km * 10) / 10 : null;
}
