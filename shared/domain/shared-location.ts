import type { LatLng } from './distance';

/**
 * A shared location as people paste it: a `geo:` URI (RFC 5870, and Android's `geo:0,0?q=lat,lng(label)`),
 * a Google Maps link (`?q=`, `?query=`, `?destination=`, `?ll=`, `/@lat,lng,17z`, a place's `!3d…!4d…`,
 * `/place/lat,lng`), an Apple Maps link (`?ll=`, `?q=`, `?sll=`, `?daddr=`, `place?coordinate=`,
 * `directions?destination=`), or the coordinates themselves (decimal or degrees-minutes-seconds), alone or
 * inside a message. Short links (maps.app.goo.gl, goo.gl/maps, maps.apple/p) hide the point: they are
 * returned as such for the server to open.
 */
export type SharedLocation =
  | ({ kind: 'point' } & LatLng)
  | { kind: 'short-link'; url: string }
  | { kind: 'unreadable'; reason: 'no-location' | 'out-of-range' };

const NUMBER = String.raw`[-+]?\d{1,3}(?:\.\d+)?`;
const PAIR = new RegExp(String.raw`^\s*(${NUMBER})\s*[,;\s]\s*(${NUMBER})\s*(?:[,;(].*)?$`);
const DMS_PART = String.raw`(\d{1,3})\s*[°º˚d]\s*(?:(\d{1,2}(?:\.\d+)?)\s*['′’m]\s*)?(?:(\d{1,2}(?:\.\d+)?)\s*(?:["″”]|''|s)\s*)?([NSEW])`;
const DMS = new RegExp(String.raw`${DMS_PART}[\s,;]*${DMS_PART}`, 'i');

const SHORT_HOSTS = [/^maps\.app\.goo\.gl$/, /^goo\.gl$/, /^g\.co$/, /^maps\.apple$/];
const GOOGLE_HOST = /(^|\.)google\.[a-z.]+$|^maps\.google\.[a-z.]+$/;
const APPLE_HOST = /^(maps\.apple\.com|maps\.apple)$/;
/** Query parameters that name the point, most specific first. */
const GOOGLE_PARAMS = ['query', 'destination', 'q', 'daddr', 'll', 'center', 'sll'];
const APPLE_PARAMS = ['coordinate', 'll', 'destination', 'daddr', 'q', 'sll', 'center'];

function inRange(lat: number, lng: number): boolean {
  return Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;
}

function point(lat: number, lng: number): SharedLocation {
  if (!inRange(lat, lng)) return { kind: 'unreadable', reason: 'out-of-range' };
  // 0,0 is the "no location" of many apps (Android's geo:0,0?q=…), never a site.
  if (lat === 0 && lng === 0) return { kind: 'unreadable', reason: 'no-location' };
  return { kind: 'point', lat, lng };
}

function dmsValue(deg: string, min: string | undefined, sec: string | undefined, hemi: string) {
  const v = Number(deg) + Number(min ?? 0) / 60 + Number(sec ?? 0) / 3600;
  return /[SW]/i.test(hemi) ? -v : v;
}

/** "−1.1021, 37.0144", "-1.1021 37.0144", `1°06'07.6"S 37°00'51.8"E`, or null. */
export function parseCoordinates(text: string): SharedLocation | null {
  const plain = PAIR.exec(text.replace(/\u2212/g, '-'));
  if (plain) return point(Number(plain[1]), Number(plain[2]));
  const dms = DMS.exec(text);
  if (!dms) return null;
  const a = { value: dmsValue(dms[1]!, dms[2], dms[3], dms[4]!), hemi: dms[4]!.toUpperCase() };
  const b = { value: dmsValue(dms[5]!, dms[6], dms[7], dms[8]!), hemi: dms[8]!.toUpperCase() };
  const aIsLat = a.hemi === 'N' || a.hemi === 'S';
  const bIsLat = b.hemi === 'N' || b.hemi === 'S';
  if (aIsLat === bIsLat) return { kind: 'unreadable', reason: 'no-location' };
  return aIsLat ? point(a.value, b.value) : point(b.value, a.value);
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

function parseGeoUri(uri: string): SharedLocation {
  const body = decode(uri.slice(4));
  const [path = '', query = ''] = body.split('?');
  const q = new URLSearchParams(query).get('q');
  // Android puts the real point in q= and often 0,0 in the path.
  if (q) {
    const fromQ = parseCoordinates(q);
    if (fromQ?.kind === 'point') return fromQ;
  }
  const coords = path.split(';')[0]!.split(',');
  if (coords.length >= 2) {
    const r = point(Number(coords[0]), Number(coords[1]));
    if (r.kind === 'point' || !q) return r;
  }
  return { kind: 'unreadable', reason: 'no-location' };
}

function fromParams(url: URL, names: readonly string[]): SharedLocation | null {
  for (const name of names) {
    const value = url.searchParams.get(name);
    if (!value) continue;
    const r = parseCoordinates(value);
    if (r) return r;
  }
  return null;
}

function parseGoogle(url: URL): SharedLocation {
  const path = decode(url.pathname);
  // A place's own point (…!3d-1.10!4d37.01) beats the map's centre (@-1.10,37.01,15z) beside it.
  const place = /!3d(-?\d+(?:\.\d+)?)!4d(-?\d+(?:\.\d+)?)/.exec(path + url.hash);
  if (place) return point(Number(place[1]), Number(place[2]));
  const fromQuery = fromParams(url, GOOGLE_PARAMS);
  if (fromQuery) return fromQuery;
  const named = /\/maps\/(?:place|search|dir(?:\/[^/]*)?)\/([^/@]+)/.exec(path);
  if (named) {
    const r = parseCoordinates(named[1]!);
    if (r) return r;
  }
  const centre = /@(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)/.exec(path);
  if (centre) return point(Number(centre[1]), Number(centre[2]));
  // A consent or redirect page carries the real link in a parameter.
  for (const name of ['continue', 'link', 'url']) {
    const inner = url.searchParams.get(name);
    if (inner && /^https?:/i.test(inner)) return parseSharedLocation(inner);
  }
  return { kind: 'unreadable', reason: 'no-location' };
}

function parseApple(url: URL): SharedLocation {
  return fromParams(url, APPLE_PARAMS) ?? { kind: 'unreadable', reason: 'no-location' };
}

/** The first link or geo: URI in a message ("My location: https://maps.app.goo.gl/…"), if any. */
function firstLocator(text: string): string | null {
  const m = /\b(?:geo:[^\s]+|https?:\/\/[^\s<>"]+|(?:www\.|maps\.|goo\.gl\/)[a-z0-9./-]*[^\s<>"]*)/i.exec(
    text,
  );
  return m ? m[0].replace(/[).,;]+$/, '') : null;
}

export function parseSharedLocation(input: string): SharedLocation {
  const text = input.trim();
  const locator = firstLocator(text);
  if (!locator) return parseCoordinates(text) ?? { kind: 'unreadable', reason: 'no-location' };
  if (/^geo:/i.test(locator)) return parseGeoUri(locator);
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(locator) ? locator : `https://${locator}`);
  } catch {
    return { kind: 'unreadable', reason: 'no-location' };
  }
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const shortLink = SHORT_HOSTS.some((h) => h.test(host));
  if (shortLink && (host !== 'goo.gl' || url.pathname.startsWith('/maps')))
    return { kind: 'short-link', url: url.toString() };
  if (GOOGLE_HOST.test(host)) return parseGoogle(url);
  if (APPLE_HOST.test(host)) return parseApple(url);
  return { kind: 'unreadable', reason: 'no-location' };
}

/** Whether a short link may be opened by the server: only the maps services' own shorteners, over https. */
export function isShortMapLink(url: string): boolean {
  try {
    const u = new URL(url);
    const host = u.hostname.toLowerCase();
    return u.protocol === 'https:' && SHORT_HOSTS.some((h) => h.test(host));
  } catch {
    return false;
  }
}
