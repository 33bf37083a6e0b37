import type { AxleCount } from '../enums';

/**
 * Legal gross vehicle weight (issue 17). The Traffic Act (Cap 403), as KeNHA's weighbridge rules state
 * it: 2-axle rigid 18 t, 3-axle 26 t, 4-axle 30 t gross. A load is legal when the empty truck (tare)
 * plus the load stays within its axle count's limit; the limits sit in the editable gross_limits table.
 */

/** The seeded limits (drizzle/migrations/0012), in tonnes gross. */
export const DEFAULT_GROSS_LIMITS_T: Record<AxleCount, number> = { 2: 18, 3: 26, 4: 30 };

const hundredths = (t: number) => Math.round(t * 100);

/** What the truck may carry: its limit less its empty weight, never below zero (hundredths of a tonne). */
export function legalPayloadT(grossLimitT: number, tareT: number): number {
  return Math.max(0, hundredths(grossLimitT) - hundredths(tareT)) / 100;
}

export type LegalWeightVerdict =
  | { legal: true; unknown: boolean; legalPayloadT: number | null }
  | { legal: false; grossT: number; limitT: number; legalPayloadT: number };

/**
 * Whether `tonnes` on this truck is within the limit. A truck without a recorded tare (or a limit for its
 * axles) cannot be checked: it passes, marked unknown, so existing trucks keep working until filled in.
 */
export function legalWeight(
  truck: { axles: number; tareT: number | null },
  tonnes: number,
  limits: Partial<Record<number, number>>,
): LegalWeightVerdict {
  const limitT = limits[truck.axles];
  if (truck.tareT === null || limitT === undefined)
    return { legal: true, unknown: true, legalPayloadT: null };
  const payload = legalPayloadT(limitT, truck.tareT);
  const grossT = (hundredths(truck.tareT) + hundredths(tonnes)) / 100;
  if (hundredths(grossT) <= hundredths(limitT))
    return { legal: true, unknown: false, legalPayloadT: payload };
  return { legal: false, grossT, limitT, legalPayloadT: payload };
}

export const LEGAL_WEIGHT_MESSAGES = {
  overLimit: (
    plate: string,
    axles: number,
    limitT: number,
    tareT: number,
    payloadT: number,
    grossT: number,
  ) =>
    `Over the legal weight: a ${axles}-axle truck may weigh ${limitT} t gross. ${plate} weighs ${tareT} t empty, so its legal payload is ${payloadT} t; this load makes ${grossT} t.`,
  reasonRequired: 'Give a reason for loading above the legal limit.',
};
