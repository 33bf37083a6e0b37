/**
 * Positions from drivers' phones (Traccar Client) and GPS trackers: the OsmAnd protocol (query or form
 * parameters) and Traccar Client's JSON. Units: OsmAnd speed is knots, Traccar JSON speed is m/s; we
 * keep km/h. Invariants follow Traccar's own filters.
 */
export const MOVING_KMH = 5;
export const MAX_SPEED_KNOTS = 869;
const MAX_FUTURE_MS = 25 * 3600 * 1000;
const MIN_FIX_TIME = Date.UTC(1999, 0, 1);

export interface Fix {
  deviceId: string;
  lat: number;
  lng: number;
  fixTime: Date;
  speedKmh: number | null;
  heading: number | null;
  altitude: number | null;
  accuracy: number | null;
  battery: number | null;
  attributes: Record<string, string | number | boolean>;
}

export const knotsToKmh = (knots: number) => knots * 1.852;
export const msToKmh = (ms: number) => ms * 3.6;

function num(v: unknown): number | null {
  if (v === undefined || v === null || v === '') return null;
  const n = typeof v === 'number' ? v : Number(String(v).trim());
  return Number.isFinite(n) ? n : null;
}

/** Epoch seconds, epoch milliseconds or an ISO date. */
export function parseTimestamp(v: unknown, now: Date): Date | null {
  if (v === undefined || v === null || v === '') return now;
  const n = num(v);
  if (n !== null) return new Date(n > 1e11 ? n : n * 1000);
  const d = new Date(String(v));
  return Number.isNaN(d.getTime()) ? null : d;
}

const OSMAND_KNOWN = new Set([
  'id',
  'deviceid',
  'lat',
  'lon',
  'location',
  'timestamp',
  'speed',
  'bearing',
  'heading',
  'altitude',
  'accuracy',
  'batt',
]);

export type ParseResult = { ok: true; fix: Fix } | { ok: false; error: string };

export function parseOsmand(params: Record<string, unknown>, now: Date): ParseResult {
  const deviceId = String(params.id ?? params.deviceid ?? '').trim();
  if (!deviceId) return { ok: false, error: 'Missing device id (id or deviceid).' };
  let lat = num(params.lat);
  let lng = num(params.lon);
  if ((lat === null || lng === null) && typeof params.location === 'string') {
    const [a, b] = params.location.split(',');
    lat = num(a);
    lng = num(b);
  }
  if (lat === null || lng === null)
    return { ok: false, error: 'Missing position (lat and lon, or location=lat,lon).' };
  const fixTime = parseTimestamp(params.timestamp, now);
  if (!fixTime) return { ok: false, error: 'Unreadable timestamp.' };
  const knots = num(params.speed);
  const attributes: Fix['attributes'] = {};
  for (const [k, v] of Object.entries(params)) {
    if (OSMAND_KNOWN.has(k) || v === undefined || v === null) continue;
    const n = num(v);
    attributes[k] = n ?? (v === 'true' ? true : v === 'false' ? false : String(v).slice(0, 200));
  }
  return {
    ok: true,
    fix: {
      deviceId,
      lat,
      lng,
      fixTime,
      speedKmh: knots === null ? null : knotsToKmh(knots),
      heading: num(params.bearing ?? params.heading),
      altitude: num(params.altitude),
      accuracy: num(params.accuracy),
      battery: num(params.batt),
      attributes,
    },
  };
}

interface TraccarLocation {
  timestamp?: unknown;
  coords?: {
    latitude?: unknown;
    longitude?: unknown;
    speed?: unknown;
    heading?: unknown;
    accuracy?: unknown;
    altitude?: unknown;
  };
  battery?: { level?: unknown; is_charging?: unknown };
  is_moving?: unknown;
  odometer?: unknown;
  activity?: { type?: unknown };
}

/** Traccar Client JSON: `{ device_id, location: {...} }`; `location` may also be a list of buffered fixes. */
export function parseTraccarJson(body: unknown, now: Date): ParseResult[] {
  const b = (body ?? {}) as { device_id?: unknown; location?: TraccarLocation | TraccarLocation[] };
  const deviceId = String(b.device_id ?? '').trim();
  if (!deviceId) return [{ ok: false, error: 'Missing device_id.' }];
  const locations = Array.isArray(b.location) ? b.location : b.location ? [b.location] : [];
  if (locations.length === 0) return [{ ok: false, error: 'Missing location.' }];
  return locations.map((loc): ParseResult => {
    const lat = num(loc.coords?.latitude);
    const lng = num(loc.coords?.longitude);
    if (lat === null || lng === null)
      return { ok: false, error: 'Missing coords.latitude or coords.longitude.' };
    const fixTime = parseTimestamp(loc.timestamp, now);
    if (!fixTime) return { ok: false, error: 'Unreadable timestamp.' };
    const ms = num(loc.coords?.speed);
    const level = num(loc.battery?.level);
    const attributes: Fix['attributes'] = {};
    if (typeof loc.is_moving === 'boolean') attributes.motion = loc.is_moving;
    if (num(loc.odometer) !== null) attributes.odometer = num(loc.odometer)!;
    if (typeof loc.battery?.is_charging === 'boolean') attributes.charge = loc.battery.is_charging;
    if (typeof loc.activity?.type === 'string') attributes.activity = loc.activity.type;
    return {
      ok: true,
      fix: {
        deviceId,
        lat,
        lng,
        fixTime,
        // Traccar Client reports -1 when the speed is unknown.
        speedKmh: ms === null || ms < 0 ? null : msToKmh(ms),
        heading: num(loc.coords?.heading),
        altitude: num(loc.coords?.altitude),
        accuracy: num(loc.coords?.accuracy),
        battery: level === null ? null : level <= 1 ? Math.round(level * 100) : level,
        attributes,
      },
    };
  });
}

/** The reason a fix is refused, or null when it is plausible. */
export function invalidFix(fix: Fix, now: Date): string | null {
  if (fix.lat < -90 || fix.lat > 90) return 'Latitude must be between -90 and 90.';
  if (fix.lng < -180 || fix.lng > 180) return 'Longitude must be between -180 and 180.';
  const t = fix.fixTime.getTime();
  if (t < MIN_FIX_TIME || t > now.getTime() + MAX_FUTURE_MS) return 'Fix time is out of range.';
  if (fix.speedKmh !== null && (fix.speedKmh < 0 || fix.speedKmh > knotsToKmh(MAX_SPEED_KNOTS)))
    return 'Speed is out of range.';
  return null;
}

/** Minutes a truck has stood still: from its last movement above 5 km/h to now; null when unknown. */
export function idleMinutes(lastMovedAt: Date | null, lastUpdated: Date | null, now: Date): number | null {
  const since = lastMovedAt ?? lastUpdated;
  if (!since) return null;
  return Math.max(0, Math.floor((now.getTime() - since.getTime()) / 60_000));
}

/** Spec idle text: 'Idle < 1 min' under a minute, minutes otherwise, 'Idle time n/a' when unknown. */
export function idleText(minutes: number | null | undefined): string {
  if (minutes === null || minutes === undefined) return 'Idle time n/a';
  if (minutes < 1) return 'Idle < 1 min';
  if (minutes < 120) return `Idle ${minutes} min`;
  return `Idle ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export const isMoving = (speedKmh: number | null | undefined) => (speedKmh ?? 0) > MOVING_KMH;
