import { DEFAULT_DISTANCE_KM, findPlace, type LatLng, roadDistanceKm } from '../../shared/domain/distance';
import type { DistanceSource } from '../../shared/enums';
import type { Settings } from '../../shared/settings';

export interface ResolvedDistance {
  distanceKm: number;
  source: DistanceSource;
}

/** Where a site is on the map, and how it was found (the order's first site point). */
export interface LocatedSite extends LatLng {
  source: 'geocoder' | 'gazetteer';
}

type Fetch = typeof fetch;

const LOOKUP_TIMEOUT_MS = 1_500;
const siteKey = (site: string) => site.trim().toLowerCase().replace(/\s+/g, ' ');
const CACHE_TTL_MS = 24 * 3600 * 1000;
const CACHE_MAX = 5_000;

async function getJson(fetchImpl: Fetch, url: string): Promise<unknown> {
  const res = await fetchImpl(url, {
    headers: { accept: 'application/json', 'user-agent': 'Mchanga/1.0 (sand delivery quotes)' },
    signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

/** Nominatim-style search: `/search?format=json&q=...` → `[{ lat, lon }]` (strings). */
export async function geocode(fetchImpl: Fetch, baseUrl: string, query: string): Promise<LatLng | undefined> {
  const url = new URL('search', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  url.searchParams.set('format', 'json');
  url.searchParams.set('limit', '1');
  url.searchParams.set('countrycodes', 'ke');
  url.searchParams.set('q', query);
  const body = (await getJson(fetchImpl, url.toString())) as Array<{ lat?: string; lon?: string }>;
  const hit = Array.isArray(body) ? body[0] : undefined;
  const lat = Number(hit?.lat);
  const lng = Number(hit?.lon);
  if (!hit || !Number.isFinite(lat) || !Number.isFinite(lng)) return undefined;
  return { lat, lng };
}

/** OSRM route service: `/route/v1/driving/lng,lat;lng,lat` → `{ code: 'Ok', routes: [{ distance (m) }] }`. */
export async function routeKm(
  fetchImpl: Fetch,
  baseUrl: string,
  from: LatLng,
  to: LatLng,
): Promise<number | undefined> {
  const base = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl;
  const url = `${base}/route/v1/driving/${from.lng},${from.lat};${to.lng},${to.lat}?overview=false`;
  const body = (await getJson(fetchImpl, url)) as { code?: string; routes?: Array<{ distance?: number }> };
  const metres = body.code === 'Ok' ? body.routes?.[0]?.distance : undefined;
  return typeof metres === 'number' && metres >= 0 ? Math.round(metres / 100) / 10 : undefined;
}

/** OSRM route service's driving time in seconds (`routes[0].duration`), for a truck's time to its site. */
export async function routeSeconds(
  fetchImpl: Fetch,
  baseUrl: string,
  from: LatLng,
  to: LatLng,
): Promise<number | undefined> {
  const base = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl;
  const url = `${base}/route/v1/driving/${from.lng},${from.lat};${to.lng},${to.lat}?overview=false`;
  const body = (await getJson(fetchImpl, url)) as { code?: string; routes?: Array<{ duration?: number }> };
  const seconds = body.code === 'Ok' ? body.routes?.[0]?.duration : undefined;
  return typeof seconds === 'number' && seconds >= 0 ? seconds : undefined;
}

/**
 * Where a site is, in road km from the yard: the customer's own figure; else a configured geocoder
 * (with OSRM for the road distance when set); else a place named in the text; else the default.
 * Lookups are cached, so a customer typing the same site does not ask the geocoder twice.
 */
export class DistanceResolver {
  private readonly cache = new Map<string, { at: number; value: ResolvedDistance }>();
  private readonly points = new Map<string, { at: number; value: LatLng | undefined }>();

  constructor(
    private readonly config: Pick<Settings, 'geocoderUrl' | 'osrmUrl'> & { yard: LatLng },
    private readonly fetchImpl: Fetch = fetch,
    private readonly log?: { warn(obj: unknown, msg?: string): void },
  ) {}

  async resolve(site: string, manualKm?: number): Promise<ResolvedDistance> {
    const known = this.peek(site, manualKm);
    if (known) return known;
    const value = (await this.lookup(site)) ?? this.offline(site);
    this.remember(site, value);
    return value;
  }

  /**
   * The distance when no lookup is needed, at once: the customer's own figure, a cached answer, or the
   * offline gazetteer when no geocoder is configured (the public quote's hot path). Undefined otherwise.
   */
  peek(site: string, manualKm?: number): ResolvedDistance | undefined {
    if (manualKm !== undefined && manualKm > 0)
      return { distanceKm: Math.round(manualKm * 10) / 10, source: 'manual' };
    const cached = this.cache.get(siteKey(site));
    if (cached && Date.now() - cached.at < CACHE_TTL_MS) return cached.value;
    if (this.config.geocoderUrl) return undefined;
    const value = this.offline(site);
    this.remember(site, value);
    return value;
  }

  private remember(site: string, value: ResolvedDistance) {
    this.cache.set(siteKey(site), { at: Date.now(), value });
    if (this.cache.size > CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
  }

  /** The site's point: the geocoder's when configured and it finds one, else a place named in the text. */
  async locate(site: string): Promise<LocatedSite | undefined> {
    const point = this.config.geocoderUrl ? await this.geocoded(site).catch(() => undefined) : undefined;
    if (point) return { ...point, source: 'geocoder' };
    const place = findPlace(site);
    return place ? { lat: place.lat, lng: place.lng, source: 'gazetteer' } : undefined;
  }

  /** The geocoder's answer for a site, cached (a quote and then its order ask once). */
  private async geocoded(site: string): Promise<LatLng | undefined> {
    const key = site.trim().toLowerCase().replace(/\s+/g, ' ');
    const cached = this.points.get(key);
    if (cached && Date.now() - cached.at < CACHE_TTL_MS) return cached.value;
    const value = await geocode(this.fetchImpl, this.config.geocoderUrl!, `${site}, Kenya`);
    this.points.set(key, { at: Date.now(), value });
    if (this.points.size > CACHE_MAX) this.points.delete(this.points.keys().next().value as string);
    return value;
  }

  private async lookup(site: string): Promise<ResolvedDistance | undefined> {
    const { geocoderUrl, osrmUrl, yard } = this.config;
    if (!geocoderUrl) return undefined;
    try {
      const point = await this.geocoded(site);
      if (!point) return undefined;
      const road = osrmUrl
        ? await routeKm(this.fetchImpl, osrmUrl, yard, point).catch(() => undefined)
        : undefined;
      return { distanceKm: road ?? roadDistanceKm(yard, point), source: 'geocoded' };
    } catch (err) {
      this.log?.warn({ err }, 'geocoder unavailable; using the offline gazetteer');
      return undefined;
    }
  }

  private offline(site: string): ResolvedDistance {
    const place = findPlace(site);
    if (place) return { distanceKm: roadDistanceKm(this.config.yard, place), source: 'heuristic' };
    return { distanceKm: DEFAULT_DISTANCE_KM, source: 'default' };
  }
}

const resolvers = new WeakMap<object, DistanceResolver>();

/** One resolver (and cache) per app configuration. */
export function distanceResolverFor(
  config: Settings,
  log?: { warn(obj: unknown, msg?: string): void },
): DistanceResolver {
  let r = resolvers.get(config);
  if (!r) {
    r = new DistanceResolver(config, fetch, log);
    resolvers.set(config, r);
  }
  return r;
}
