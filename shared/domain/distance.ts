import { PLACES, type Place } from './gazetteer';

export interface LatLng {
  lat: number;
  lng: number;
}

/** Roads wind: straight-line distance times this is a fair road estimate around Nairobi and Kiambu. */
export const ROAD_FACTOR = 1.3;
/** When nothing in the site text is known: a typical Thika–Juja corridor delivery (documented in README). */
export const DEFAULT_DISTANCE_KM = 20;

export function haversineKm(a: LatLng, b: LatLng): number {
  const R = 6371;
  const toRad = (d: number) => (d * Math.PI) / 180;
  const dLat = toRad(b.lat - a.lat);
  const dLng = toRad(b.lng - a.lng);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(toRad(a.lat)) * Math.cos(toRad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}

export function normalisePlaceText(text: string): string {
  return ` ${text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['\u2019`]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;
}

interface Entry {
  key: string;
  place: Place;
}

// Longest names first, so "Juja Farm" wins over "Juja" and "Kahawa West" over "Kahawa".
const ENTRIES: Entry[] = PLACES.flatMap((place) =>
  [place.name, ...(place.aliases ?? [])].map((n) => ({ key: normalisePlaceText(n), place })),
).sort((a, b) => b.key.length - a.key.length);

/** The most specific known place named in free text, e.g. "Plot 12, Membley estate, Ruiru" → Membley. */
export function findPlace(siteText: string): Place | undefined {
  const text = normalisePlaceText(siteText);
  return ENTRIES.find((e) => text.includes(e.key))?.place;
}

export function roadDistanceKm(from: LatLng, to: LatLng): number {
  return Math.round(haversineKm(from, to) * ROAD_FACTOR * 10) / 10;
}

/** "Near Ruiru": the closest known place within `maxKm`, for a truck card's address line. */
export function nearestPlaceName(point: LatLng, maxKm = 6): string | null {
  let best: { name: string; km: number } | null = null;
  for (const p of PLACES) {
    const km = haversineKm(point, p);
    if (km <= maxKm && (!best || km < best.km)) best = { name: p.name, km };
  }
  return best ? `Near ${best.name}` : null;
}
