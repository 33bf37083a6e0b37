/**
 * Positions from drivers' phones (Traccar Client) and GPS trackers: the OsmAnd protocol (query, form or a
 * JSON list of the same fields) and the background-geolocation JSON of Traccar Client 9. Units: OsmAnd
 * speed is knots, the JSON speed m/s; we keep km/h. Reading follows Traccar's OsmAndProtocolDecoder.
 *
 * Every value is made safe here, before a request is acknowledged: text without control characters or
 * broken surrogates and bounded, numbers finite, attributes flat and few. A tracker resends the oldest
 * refused request forever and holds back the later ones, so only a request that names no device is
 * refused; an implausible fix is answered and discarded (counted), a request without a fix is a heartbeat.
 */
export const MOVING_KMH = 5;
export const MAX_SPEED_KNOTS = 869;
const MAX_FUTURE_MS = 25 * 3600 * 1000;
const MIN_FIX_TIME = Date.UTC(1999, 0, 1);
/** Traccar reads a numeric timestamp below Integer.MAX_VALUE as seconds, above as milliseconds. */
const SECONDS_BELOW = 2 ** 31 - 1;
export const MAX_DEVICE_ID = 100;
export const MAX_ATTRIBUTES = 32;
const MAX_KEY = 64;
const MAX_TEXT = 200;

export type Attributes = Record<string, string | number | boolean>;

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
  attributes: Attributes;
}

/** A report without a fix (Traccar Client's heartbeat while stationary): battery and that it is alive. */
export interface Heartbeat {
  deviceId: string;
  battery: number | null;
  attributes: Attributes;
}

export type Reading =
  | { kind: 'fix'; fix: Fix }
  | { kind: 'heartbeat'; heartbeat: Heartbeat }
  /** Answered but not stored: `reason` says why, `sample` what was sent. */
  | { kind: 'discarded'; deviceId: string; reason: string; sample: string }
  /** Nothing to attribute to a device: the only 400. */
  | { kind: 'refused'; error: string };

/** The device a reading belongs to ('' for a refusal). */
export function deviceOf(r: Reading): string {
  if (r.kind === 'fix') return r.fix.deviceId;
  if (r.kind === 'heartbeat') return r.heartbeat.deviceId;
  return r.kind === 'discarded' ? r.deviceId : '';
}

export const READING_ERRORS = {
  noDevice: 'Missing device id (id or deviceid).',
  noJsonDevice: 'Missing device_id.',
  nothing: 'No positions in the request.',
  noPosition: 'Missing position (lat and lon, or location=lat,lon).',
  noCoords: 'Missing coords.latitude or coords.longitude.',
  unreadableLocation: 'Unreadable location.',
  unreadableTime: 'Unreadable timestamp.',
  latitude: 'Latitude must be between -90 and 90.',
  longitude: 'Longitude must be between -180 and 180.',
  fixTime: 'Fix time is out of range.',
  speed: 'Speed is out of range.',
} as const;

export const knotsToKmh = (knots: number) => knots * 1.852;
export const msToKmh = (ms: number) => ms * 3.6;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** Repeated query keys arrive as lists; Traccar keeps the last. */
const last = (v: unknown) => (Array.isArray(v) ? v[v.length - 1] : v);

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const LINE_BREAKS = /[\t\n\r]+/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text PostgreSQL stores as given: no NUL or other control characters (tabs and line breaks become a
 * space), no half surrogate pairs (JSON bodies can carry them), trimmed and at most `max` characters.
 */
export function safeText(v: unknown, max = MAX_TEXT): string {
  const s = String(v).replace(LINE_BREAKS, ' ').replace(CONTROL, '').trim();
  return s.slice(0, max).replace(LONE_SURROGATE, '\uFFFD');
}

/** A finite number, from a number or numeric text; anything else is null. */
export function num(v: unknown): number | null {
  const x = last(v);
  if (typeof x === 'number') return Number.isFinite(x) ? x : null;
  if (typeof x !== 'string') return null;
  const t = x.trim();
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

const within = (n: number | null, min: number, max: number) =>
  n !== null && n >= min && n <= max ? n : null;
/** iOS and the SDKs send -1 for an unknown course, speed or accuracy: unknown stays unset. */
const heading = (v: unknown) => within(num(v), 0, 360);
const accuracy = (v: unknown) => within(num(v), 0, 1e6);
const altitude = (v: unknown) => within(num(v), -1e5, 1e6);
const percent = (n: number | null) => within(n, 0, 100);

function present(v: unknown): boolean {
  const x = last(v);
  return x !== undefined && x !== null && !(typeof x === 'string' && x.trim() === '');
}

/** Epoch seconds or milliseconds (Traccar's rule), ISO 8601, or "yyyy-MM-dd HH:mm:ss" (UTC); absent means now. */
export function parseTimestamp(v: unknown, now: Date): Date | null {
  const x = last(v);
  if (!present(x)) return now;
  const n = num(x);
  if (n !== null) return new Date(Math.abs(n) < SECONDS_BELOW ? n * 1000 : n);
  if (typeof x !== 'string') return null;
  const text = x.trim();
  const zoneless = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text);
  const d = new Date(zoneless ? `${text.replace(' ', 'T')}Z` : text);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** The reason a fix is implausible, or null. An invalid or far-off time is out of range. */
export function invalidFix(fix: Fix, now: Date): string | null {
  if (fix.lat < -90 || fix.lat > 90) return READING_ERRORS.latitude;
  if (fix.lng < -180 || fix.lng > 180) return READING_ERRORS.longitude;
  const t = fix.fixTime.getTime();
  if (!Number.isFinite(t) || t < MIN_FIX_TIME || t > now.getTime() + MAX_FUTURE_MS)
    return READING_ERRORS.fixTime;
  if (fix.speedKmh !== null && (fix.speedKmh < 0 || fix.speedKmh > knotsToKmh(MAX_SPEED_KNOTS)))
    return READING_ERRORS.speed;
  return null;
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Extra fields as flat attributes, as Traccar keeps them: numeric text becomes a number, "true"/"false"
 * a boolean; nested objects become dotted keys; lists and nulls are dropped; at most MAX_ATTRIBUTES.
 */
export class AttributeBag {
  readonly values: Attributes = {};

  set(key: string, value: unknown, depth = 0): void {
    // A repeated query key is a list of texts (Traccar keeps the last); a JSON list is dropped.
    if (Array.isArray(value) && !value.every((v) => typeof v === 'string')) return;
    const x = last(value);
    if (typeof x === 'boolean') this.put(key, x);
    else if (typeof x === 'number') this.put(key, num(x));
    else if (typeof x === 'string')
      this.put(key, num(x) ?? (x === 'true' ? true : x === 'false' ? false : safeText(x)));
    else if (isObject(x) && depth < 2)
      for (const [sub, subValue] of Object.entries(x)) this.set(`${key}.${sub}`, subValue, depth + 1);
  }

  /** Text that stays text (a driver's id), even when it looks like a number. */
  setText(key: string, value: unknown): void {
    if (present(value)) this.put(key, safeText(last(value)));
  }

  private put(key: string, value: string | number | boolean | null) {
    const k = safeText(key, MAX_KEY);
    if (!k || UNSAFE_KEYS.has(k) || value === null) return;
    if (!(k in this.values) && Object.keys(this.values).length >= MAX_ATTRIBUTES) return;
    this.values[k] = value;
  }
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
  'driverUniqueId',
]);

const discarded = (deviceId: string, reason: string, sample: unknown): Reading => ({
  kind: 'discarded',
  deviceId,
  reason,
  sample: present(sample) ? safeText(sample, 60) : '',
});

/** A fix that passed reading: plausible, or discarded with the reason. */
function checked(fix: Fix, now: Date, sentTime: unknown): Reading {
  const problem = invalidFix(fix, now);
  if (!problem) return { kind: 'fix', fix };
  const sample =
    problem === READING_ERRORS.fixTime
      ? sentTime
      : problem === READING_ERRORS.speed
        ? fix.speedKmh
        : `${fix.lat},${fix.lng}`;
  return discarded(fix.deviceId, problem, sample);
}

/** One OsmAnd request's parameters (query and form together, or one item of a JSON list). */
export function parseOsmand(params: Record<string, unknown>, now: Date): Reading {
  const deviceId = present(params.id)
    ? safeText(last(params.id), MAX_DEVICE_ID + 1)
    : present(params.deviceid)
      ? safeText(last(params.deviceid), MAX_DEVICE_ID + 1)
      : '';
  if (!deviceId) return { kind: 'refused', error: READING_ERRORS.noDevice };
  const attributes = new AttributeBag();
  for (const [k, v] of Object.entries(params)) if (!OSMAND_KNOWN.has(k)) attributes.set(k, v);
  attributes.setText('driverUniqueId', params.driverUniqueId);
  const battery = percent(num(params.batt));

  const location = last(params.location);
  if (!present(params.lat) && !present(params.lon) && !present(location))
    return { kind: 'heartbeat', heartbeat: { deviceId, battery, attributes: attributes.values } };
  let lat = num(params.lat);
  let lng = num(params.lon);
  if ((lat === null || lng === null) && typeof location === 'string') {
    const [a, b] = location.split(',');
    lat = num(a);
    lng = num(b);
  }
  if (lat === null || lng === null)
    return discarded(
      deviceId,
      READING_ERRORS.noPosition,
      `${last(params.lat) ?? location},${last(params.lon) ?? ''}`,
    );
  const fixTime = parseTimestamp(params.timestamp, now);
  if (!fixTime) return discarded(deviceId, READING_ERRORS.unreadableTime, params.timestamp);
  const knots = num(params.speed);
  return checked(
    {
      deviceId,
      lat,
      lng,
      fixTime,
      speedKmh: knots === null || knots < 0 ? null : knotsToKmh(knots),
      heading: heading(params.bearing ?? params.heading),
      altitude: altitude(params.altitude),
      accuracy: accuracy(params.accuracy),
      battery,
      attributes: attributes.values,
    },
    now,
    params.timestamp,
  );
}

/** The background-geolocation JSON: `{ device_id, location }`, `location` one fix or a buffered list. */
export function parseTraccarJson(body: unknown, now: Date): Reading[] {
  const b = isObject(body) ? body : {};
  const deviceId = present(b.device_id) ? safeText(b.device_id, MAX_DEVICE_ID + 1) : '';
  if (!deviceId) return [{ kind: 'refused', error: READING_ERRORS.noJsonDevice }];
  const locations = Array.isArray(b.location) ? b.location : present(b.location) ? [b.location] : [];
  // A body with nothing to place is a sign of life, as Traccar reads it (last known location).
  if (locations.length === 0)
    return [{ kind: 'heartbeat', heartbeat: { deviceId, battery: null, attributes: {} } }];
  return locations.map((loc): Reading => {
    if (!isObject(loc)) return discarded(deviceId, READING_ERRORS.unreadableLocation, typeof loc);
    const attributes = new AttributeBag();
    if (typeof loc.event === 'string' && loc.event.trim()) attributes.set('event', loc.event);
    if (typeof loc.is_moving === 'boolean') attributes.set('motion', loc.is_moving);
    attributes.set('odometer', num(loc.odometer));
    if (typeof loc.mock === 'boolean') attributes.set('mock', loc.mock);
    if (isObject(loc.activity)) attributes.set('activity', loc.activity.type);
    const batteryInfo = isObject(loc.battery) ? loc.battery : {};
    if (typeof batteryInfo.is_charging === 'boolean') attributes.set('charge', batteryInfo.is_charging);
    if (typeof loc.alarm === 'string') attributes.set('alarm', loc.alarm);
    if (isObject(loc.extras))
      for (const [k, v] of Object.entries(loc.extras))
        if (!(k === 'alarm' && 'alarm' in loc)) attributes.set(k, v);
    // The level is a fraction; -1 means unknown.
    const level = num(batteryInfo.level);
    const battery =
      level === null || level < 0 ? null : percent(level <= 1 ? Math.round(level * 100) : level);

    if (!isObject(loc.coords))
      return { kind: 'heartbeat', heartbeat: { deviceId, battery, attributes: attributes.values } };
    const c = loc.coords;
    const lat = num(c.latitude);
    const lng = num(c.longitude);
    if (lat === null || lng === null)
      return discarded(deviceId, READING_ERRORS.noCoords, `${String(c.latitude)},${String(c.longitude)}`);
    const fixTime = parseTimestamp(loc.timestamp, now);
    if (!fixTime) return discarded(deviceId, READING_ERRORS.unreadableTime, loc.timestamp);
    const ms = num(c.speed);
    return checked(
      {
        deviceId,
        lat,
        lng,
        fixTime,
        speedKmh: ms === null || ms < 0 ? null : msToKmh(ms),
        heading: heading(c.heading),
        altitude: altitude(c.altitude),
        accuracy: accuracy(c.accuracy),
        battery,
        attributes: attributes.values,
      },
      now,
      loc.timestamp,
    );
  });
}

/**
 * Everything in one tracker request: background-geolocation JSON (one object or a list of them), a JSON
 * list of OsmAnd objects (traccar-client-sdk with uploadJson), otherwise OsmAnd parameters from the
 * query and the form body together.
 */
export function readTrackerRequest(query: Record<string, unknown>, body: unknown, now: Date): Reading[] {
  if (Array.isArray(body)) {
    if (body.length === 0) return [{ kind: 'refused', error: READING_ERRORS.nothing }];
    return body.flatMap((item) =>
      isObject(item) && 'device_id' in item
        ? parseTraccarJson(item, now)
        : [parseOsmand(isObject(item) ? item : {}, now)],
    );
  }
  if (isObject(body) && 'device_id' in body) return parseTraccarJson(body, now);
  return [parseOsmand({ ...query, ...(isObject(body) ? body : {}) }, now)];
}

/**
 * When a truck's stand-still began: its last movement above 5 km/h, else (never seen moving) its last
 * update, as the spec computes idle minutes "from last update time if not supplied". Null when unknown.
 */
export const idleSince = (lastMovedAt: Date | null, lastUpdated: Date | null): Date | null =>
  lastMovedAt ?? lastUpdated;

/** Minutes a truck has stood still (see idleSince) to now; null when unknown. */
export function idleMinutes(lastMovedAt: Date | null, lastUpdated: Date | null, now: Date): number | null {
  const since = idleSince(lastMovedAt, lastUpdated);
  if (!since) return null;
  return Math.max(0, Math.floor((now.getTime() - since.getTime()) / 60_000));
}

/**
 * The idle-truck rule, for the `truck.idle` alert and the insights alike: a truck that has stood still
 * (idleMinutes) at least `thresholdMinutes` (IDLE_ALERT_MINUTES). It matters only for a truck with a load
 * waiting at the yard or on the road (IDLE_WATCH_LOAD_STATUSES in shared/enums.ts), which the caller's
 * query picks.
 */
export function isIdle(
  lastMovedAt: Date | null,
  lastUpdated: Date | null,
  now: Date,
  thresholdMinutes: number,
): boolean {
  const minutes = idleMinutes(lastMovedAt, lastUpdated, now);
  return minutes !== null && minutes >= thresholdMinutes;
}

/** Spec idle text: 'Idle < 1 min' under a minute, minutes otherwise, 'Idle time n/a' when unknown. */
export function idleText(minutes: number | null | undefined): string {
  if (minutes === null || minutes === undefined) return 'Idle time n/a';
  if (minutes < 1) return 'Idle < 1 min';
  if (minutes < 120) return `Idle ${minutes} min`;
  return `Idle ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export const isMoving = (speedKmh: number | null | undefined) => (speedKmh ?? 0) > MOVING_KMH;
