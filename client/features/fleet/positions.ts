import { formatDuration, type Locale } from '../../../shared/domain/format';
import { isMoving } from '../../../shared/domain/telemetry';

/** A truck silent for longer than this is not "moving", whatever its last report said. */
export const STALE_AFTER_MINUTES = 5;

export interface Freshness {
  /** The last report is older than STALE_AFTER_MINUTES. */
  stale: boolean;
  /** Moving now: a fresh report above the moving speed. */
  moving: boolean;
  /** How long ago a stale truck last reported ("31 min", "dakika 31"), for the screens' own wording. */
  silentFor: string | null;
}

/** What a truck's last report still says at `now`, its silence in the screen's language. */
export function freshness(
  truck: { speed: number | null; lastUpdated: string | null },
  now: Date,
  locale: Locale = 'en',
): Freshness {
  const at = truck.lastUpdated ? Date.parse(truck.lastUpdated) : Number.NaN;
  const minutes = Number.isNaN(at) ? null : Math.max(0, (now.getTime() - at) / 60_000);
  const stale = minutes !== null && minutes > STALE_AFTER_MINUTES;
  return {
    stale,
    moving: !stale && isMoving(truck.speed),
    silentFor: stale && minutes !== null ? formatDuration(minutes, locale) : null,
  };
}

export type LngLatBounds = [[number, number], [number, number]];

/** The box around every position (south-west, north-east), or null when there is none. */
export function boundsOf(points: ReadonlyArray<{ lng: number; lat: number }>): LngLatBounds | null {
  if (points.length === 0) return null;
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of points) {
    w = Math.min(w, p.lng);
    e = Math.max(e, p.lng);
    s = Math.min(s, p.lat);
    n = Math.max(n, p.lat);
  }
  return [
    [w, s],
    [e, n],
  ];
}

export interface ScreenPoint<K> {
  key: K;
  x: number;
  y: number;
}

/**
 * Markers whose labels would overlap on screen, grouped (greedily, in the given order): a label box is
 * about `width` × `height` px above its point, so two points closer than that on both axes collide.
 */
export function groupOverlapping<K>(
  points: ReadonlyArray<ScreenPoint<K>>,
  width: number,
  height: number,
): Array<{ keys: K[]; x: number; y: number }> {
  const groups: Array<{ keys: K[]; x: number; y: number }> = [];
  for (const p of points) {
    const near = groups.find((g) => Math.abs(g.x - p.x) < width && Math.abs(g.y - p.y) < height);
    if (near) near.keys.push(p.key);
    else groups.push({ keys: [p.key], x: p.x, y: p.y });
  }
  return groups;
}
