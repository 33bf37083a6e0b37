/** Links to a site's point in a phone's maps: directions for the driver, the pin for operations. */

const round = (v: number) => Number(v.toFixed(6));

/**
 * Turn-by-turn directions to a point in the phone's maps app (Google Maps' documented cross-platform URL,
 * which Android hands to the app and any other phone opens in the browser).
 */
export function directionsUrl(point: { lat: number; lng: number }): string {
  return `https://www.google.com/maps/dir/?api=1&destination=${round(point.lat)},${round(point.lng)}`;
}

/** The point as a pin on OpenStreetMap (the app's own map tiles), zoomed to a street. */
export function siteMapUrl(point: { lat: number; lng: number }): string {
  const lat = round(point.lat);
  const lng = round(point.lng);
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=16/${lat}/${lng}`;
}
