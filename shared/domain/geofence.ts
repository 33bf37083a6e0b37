import type { SiteSource } from '../enums';
import { haversineKm, type LatLng, ROAD_FACTOR } from './distance';

/**
 * Geofences for the yard and each order's site, fed the truck's fixes in time order. GPS drifts: a truck
 * parked near a fence's edge would cross it every few seconds (the false enter/exit storms Traccar users
 * report). So:
 * - hysteresis: a fix counts as inside only within `radius − band` and as outside only beyond
 *   `radius + band`; a fix in the band between is on neither side, so it ends a run of fixes on the new side;
 * - a fix whose reported accuracy is worse than the radius is ignored;
 * - a crossing is confirmed by two consecutive fixes on the new side, or by 60 s on it with nothing seen
 *   since (a device that stops sending fixes when parked still sends heartbeats: `tickFence`); it is
 *   dated at the first fix on the new side.
 * A fence's first side is found the same way and is no crossing (nothing is known of before).
 */
export interface Fence extends LatLng {
  radiusM: number;
}

export type Side = 'inside' | 'outside';

export interface GeoFix extends LatLng {
  /** Fix time, epoch ms. */
  at: number;
  accuracyM?: number | null;
  speedKmh?: number | null;
}

export interface Pending {
  side: Side;
  /** The first fix on the new side: when the crossing happened, if it is confirmed. */
  since: number;
  count: number;
  lat: number;
  lng: number;
}

export interface FenceState {
  side: Side | null;
  pending: Pending | null;
  /** The latest fix looked at; older or repeated fixes are skipped (a re-run job, a late batch). */
  lastAt: number | null;
}

export interface Crossing {
  side: Side;
  /** The first fix on the new side. */
  at: number;
  /** The fix that confirmed it. */
  confirmedAt: number;
  lat: number;
  lng: number;
}

export const CONFIRM_FIXES = 2;
export const CONFIRM_MS = 60_000;
/** Half the hysteresis band: at least this, wider around a wide fence. */
export const MIN_BAND_M = 40;
export const BAND_FRACTION = 0.2;
/** The smallest radius a fence may have: with GPS error of 10–20 m a smaller one would never be entered. */
export const MIN_RADIUS_M = 100;

export const EMPTY_FENCE_STATE: FenceState = { side: null, pending: null, lastAt: null };

export function bandM(radiusM: number): number {
  return Math.max(MIN_BAND_M, radiusM * BAND_FRACTION);
}

export function distanceM(a: LatLng, b: LatLng): number {
  return haversineKm(a, b) * 1000;
}

/** The side a fix clearly lies on, null in the band, 'ignored' when its accuracy is worse than the radius. */
export function sideOf(fence: Fence, fix: GeoFix): Side | null | 'ignored' {
  if (fix.accuracyM !== null && fix.accuracyM !== undefined && fix.accuracyM > fence.radiusM)
    return 'ignored';
  const d = distanceM(fence, fix);
  const band = bandM(fence.radiusM);
  if (d <= fence.radiusM - band) return 'inside';
  if (d >= fence.radiusM + band) return 'outside';
  return null;
}

function confirm(state: FenceState, pending: Pending, at: number, lastAt: number | null) {
  const crossing: Crossing | null =
    state.side === null
      ? null
      : { side: pending.side, at: pending.since, confirmedAt: at, lat: pending.lat, lng: pending.lng };
  return { state: { side: pending.side, pending: null, lastAt }, crossing };
}

/** One fix: the fence's next state, and the crossing it confirmed, if any. */
export function stepFence(
  fence: Fence,
  state: FenceState,
  fix: GeoFix,
): { state: FenceState; crossing: Crossing | null } {
  if (state.lastAt !== null && fix.at <= state.lastAt) return { state, crossing: null };
  const side = sideOf(fence, fix);
  if (side === 'ignored') return { state: { ...state, lastAt: fix.at }, crossing: null };
  if (side === null || side === state.side)
    return { state: { ...state, pending: null, lastAt: fix.at }, crossing: null };
  const pending: Pending =
    state.pending?.side === side
      ? { ...state.pending, count: state.pending.count + 1 }
      : { side, since: fix.at, count: 1, lat: fix.lat, lng: fix.lng };
  if (pending.count < CONFIRM_FIXES && fix.at - pending.since < CONFIRM_MS)
    return { state: { ...state, pending, lastAt: fix.at }, crossing: null };
  return confirm(state, pending, fix.at, fix.at);
}

/** How long after its first fix a crossing may still be confirmed by time alone. */
export const TICK_MAX_MS = 10 * 60_000;

/**
 * The device reported without a fix at `at` (a heartbeat): a crossing begun at least 60 s before, with no
 * fix since that contradicts it, is confirmed.
 */
export function tickFence(state: FenceState, at: number): { state: FenceState; crossing: Crossing | null } {
  const p = state.pending;
  if (!p || at - p.since < CONFIRM_MS || at - p.since > TICK_MAX_MS) return { state, crossing: null };
  return confirm(state, p, at, state.lastAt);
}

/** Many fixes (sorted here by time): the final state and every crossing, in order. */
export function runFence(
  fence: Fence,
  state: FenceState,
  fixes: readonly GeoFix[],
): { state: FenceState; crossings: Crossing[] } {
  const crossings: Crossing[] = [];
  let s = state;
  for (const fix of [...fixes].sort((a, b) => a.at - b.at)) {
    const r = stepFence(fence, s, fix);
    s = r.state;
    if (r.crossing) crossings.push(r.crossing);
  }
  return { state: s, crossings };
}

/** Whether two fences are the same place and size (a refined site point starts its fence afresh). */
export function sameFence(a: Fence, b: Fence): boolean {
  return a.lat === b.lat && a.lng === b.lng && a.radiusM === b.radiusM;
}

// ── Stops: where a site point is unknown, the driver's first stop at the site sets it ─────────────────────

/** A stop is a truck at most this far from where it stopped, at walking pace or slower. */
export const STOP_RADIUS_M = 50;
export const STOP_MAX_KMH = 5;
/** How long a stop must last to be taken as the site (longer than a junction or a jam). */
export const SITE_STOP_MS = 3 * 60_000;

export interface StopState {
  since: number;
  lat: number;
  lng: number;
  lastAt: number;
}

/**
 * Follows a truck's stops: the stop it is in (null while it moves), and how long it has lasted. A fix
 * without a speed counts as stopped when it stays within STOP_RADIUS_M of the stop's start.
 */
export function stepStop(stop: StopState | null, fix: GeoFix): StopState | null {
  if (stop && fix.at <= stop.lastAt) return stop;
  if (fix.speedKmh !== null && fix.speedKmh !== undefined && fix.speedKmh > STOP_MAX_KMH) return null;
  if (stop && distanceM(stop, fix) <= STOP_RADIUS_M) return { ...stop, lastAt: fix.at };
  return { since: fix.at, lat: fix.lat, lng: fix.lng, lastAt: fix.at };
}

export const stopMs = (stop: StopState | null) => (stop ? stop.lastAt - stop.since : 0);

// ── Estimated time of arrival without a router ─────────────────────────────────────────────────────────

/** Below this recent average a truck is stuck or parked: its arrival cannot be estimated from its pace. */
export const MIN_ETA_SPEED_KMH = 5;

/**
 * Minutes to the site: the straight-line distance × the road factor, at the truck's recent average speed.
 * Undefined when either is unknown or the truck has barely moved lately; never negative.
 */
export function etaMinutesFromPace(
  from: LatLng,
  to: LatLng,
  averageKmh: number | null | undefined,
  roadFactor = ROAD_FACTOR,
): number | undefined {
  if (averageKmh === null || averageKmh === undefined || !Number.isFinite(averageKmh)) return undefined;
  if (averageKmh < MIN_ETA_SPEED_KMH) return undefined;
  const km = haversineKm(from, to) * roadFactor;
  if (!Number.isFinite(km)) return undefined;
  return Math.max(0, Math.round((km / averageKmh) * 60));
}

/** OSRM's seconds as whole minutes; undefined for anything that is not a duration. */
export function etaMinutesFromSeconds(seconds: unknown): number | undefined {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return undefined;
  return Math.max(0, Math.round(seconds / 60));
}

// ── Site points ────────────────────────────────────────────────────────────────────────────────────────

/** A geocoded address is usually right to the street; a gazetteer match only to the town or estate. */
export const GEOCODER_RADIUS_M = 500;
export const GAZETTEER_RADIUS_M = 1500;

/** The site fence's radius: the setting for a point someone put there, wider for looked-up ones. */
export function siteRadiusFor(source: SiteSource, baseM: number): number {
  if (source === 'geocoder') return Math.max(baseM, GEOCODER_RADIUS_M);
  if (source === 'gazetteer') return Math.max(baseM, GAZETTEER_RADIUS_M);
  return baseM;
}

/** Points someone put at the site (a pin, a shared location, the driver there): they beat looked-up ones. */
export const EXACT_SITE_SOURCES = ['pin', 'link', 'driver'] as const satisfies readonly SiteSource[];

/** A point someone put at the site (a pin, a shared location, the driver there) beats a looked-up one. */
export const isExactSite = (source: SiteSource | null | undefined) =>
  (EXACT_SITE_SOURCES as readonly string[]).includes(source ?? '');
