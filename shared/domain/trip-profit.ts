/**
 * What a delivered load earns (issue 17): its revenue less its fuel share, the loading and offloading
 * costs that name it, the driver's trip allowance and the county cess. All money in cents.
 */
import { toCents } from './money';

/** A county (or route) cess per trip: `match` is looked for in the order's site text; `*` is any site. */
export interface CessRule {
  match: string;
  cents: number;
}

/** `Kiambu=300,Machakos=450,*=0` → rules (KES per trip); throws on a malformed entry. */
export function parseCess(text: string): CessRule[] {
  return text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const m = /^([^=]+)=(\d+(?:\.\d{1,2})?)$/.exec(p);
      if (!m) throw new Error(`"${p}" is not place=KES`);
      return { match: m[1]!.trim().toLowerCase(), cents: toCents(Number(m[2])) };
    });
}

/** The first rule naming the site, else `*`, else nothing. */
export function cessFor(site: string, rules: CessRule[]): number {
  const s = site.toLowerCase();
  return (
    (rules.find((r) => r.match !== '*' && s.includes(r.match)) ?? rules.find((r) => r.match === '*'))
      ?.cents ?? 0
  );
}

/**
 * Fuel share of a trip: its kilometres at the truck's measured consumption (L/100 km) and the price paid
 * per litre at its last fill; 0 when consumption or price is unknown (the fuel then stays with the truck's
 * costs that belong to no trip).
 */
export function fuelShareCents(km: number | null, litresPer100: number | null, centsPerLitre: number | null) {
  if (km === null || litresPer100 === null || centsPerLitre === null) return 0;
  return Math.round(((km * litresPer100) / 100) * centsPerLitre);
}

/**
 * The price per litre paid at the truck's last fill at or before `at`: `fills` oldest first, a later
 * entry winning a tie; null when it had none by then.
 */
export function priceAt(
  fills: ReadonlyArray<{ at: number; centsPerLitre: number }>,
  at: number,
): number | null {
  let lo = 0;
  let hi = fills.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (fills[mid]!.at <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? null : fills[lo - 1]!.centsPerLitre;
}

export interface TripMoney {
  revenueCents: number;
  fuelCents: number;
  linkedCents: number;
  allowanceCents: number;
  cessCents: number;
}

export const marginCents = (t: TripMoney) =>
  t.revenueCents - t.fuelCents - t.linkedCents - t.allowanceCents - t.cessCents;

/** A transport window `06:00-18:00` as minutes of the day. */
export function parseWindow(text: string): { from: number; to: number } {
  const m = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/.exec(text.trim());
  if (!m) throw new Error('use HH:MM-HH:MM');
  const from = Number(m[1]) * 60 + Number(m[2]);
  const to = Number(m[3]) * 60 + Number(m[4]);
  if (from >= 24 * 60 || to > 24 * 60 || from >= to) throw new Error('use HH:MM-HH:MM with the start first');
  return { from, to };
}

/** Whether a local minute of the day (Africa/Nairobi) falls outside the window. */
export const outsideWindow = (minuteOfDay: number, w: { from: number; to: number }) =>
  minuteOfDay < w.from || minuteOfDay >= w.to;

/** Whether an instant falls outside the window in Nairobi (UTC+3, no daylight saving). */
export function instantOutsideWindow(
  at: Date,
  w: { from: number; to: number },
  offsetMinutes = 180,
): boolean {
  const minute = (((at.getUTCHours() * 60 + at.getUTCMinutes() + offsetMinutes) % 1440) + 1440) % 1440;
  return outsideWindow(minute, w);
}

/** Whether a load is scheduled, or moved (out, on site), outside the window: flagged, not refused. */
export function loadOutsideWindow(
  load: { scheduledAt: string | null; inTransitAt?: string | null; arrivedAt?: string | null },
  w: { from: number; to: number },
): boolean {
  return [load.scheduledAt, load.inTransitAt ?? null, load.arrivedAt ?? null].some(
    (t) => t !== null && instantOutsideWindow(new Date(t), w),
  );
}
