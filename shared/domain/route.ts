import { haversineKm, type LatLng } from './distance';

/** Thika → Juja → Ruiru → Githurai → Kasarani along the Thika road, for the demo simulator. */
export const THIKA_ROAD: LatLng[] = [
  { lat: -1.0333, lng: 37.0693 },
  { lat: -1.0767, lng: 37.0278 },
  { lat: -1.1021, lng: 37.0144 },
  { lat: -1.1466, lng: 36.9609 },
  { lat: -1.1906, lng: 36.9369 },
  { lat: -1.2006, lng: 36.9167 },
  { lat: -1.2227, lng: 36.9033 },
];

export function routeLengthKm(route: LatLng[]): number {
  let km = 0;
  for (let i = 1; i < route.length; i++) km += haversineKm(route[i - 1]!, route[i]!);
  return km;
}

/** The point `km` along a route driven there and back (ping-pong), with the bearing of travel in degrees. */
export function pointAlong(route: LatLng[], km: number): LatLng & { bearing: number } {
  const length = routeLengthKm(route);
  const lap = ((km % (2 * length)) + 2 * length) % (2 * length);
  const forward = lap <= length;
  const path = forward ? route : [...route].reverse();
  let left = forward ? lap : lap - length;
  for (let i = 1; i < path.length; i++) {
    const a = path[i - 1]!;
    const b = path[i]!;
    const seg = haversineKm(a, b);
    if (left <= seg || i === path.length - 1) {
      const f = seg === 0 ? 0 : Math.min(1, left / seg);
      const bearing = (Math.atan2(b.lng - a.lng, b.lat - a.lat) * 180) / Math.PI;
      return {
        lat: a.lat + (b.lat - a.lat) * f,
        lng: a.lng + (b.lng - a.lng) * f,
        bearing: (bearing + 360) % 360,
      };
    }
    left -= seg;
  }
  const last = path[path.length - 1]!;
  return { ...last, bearing: 0 };
}
