import 'maplibre-gl/dist/maplibre-gl.css';
import { type StyleSpecification, setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { useMemo, useState } from 'react';
import MapView, { Marker, NavigationControl } from 'react-map-gl/maplibre';
import { isMoving } from '../../../shared/domain/telemetry';
import type { TTruckTelemetry } from '../../../shared/schemas/telemetry';

// Bundled maplibre cannot find its worker by itself (STACK-NOTES).
setWorkerUrl(workerUrl);

const NAIROBI = { longitude: 36.8219, latitude: -1.2921, zoom: 9 };

function styleFor(tileUrl: string, withTiles: boolean): StyleSpecification {
  return {
    version: 8,
    sources: withTiles
      ? {
          osm: {
            type: 'raster',
            tiles: [tileUrl],
            tileSize: 256,
            attribution: '© OpenStreetMap contributors',
          },
        }
      : {},
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': '#efe9df' } },
      ...(withTiles ? [{ id: 'osm', type: 'raster' as const, source: 'osm' }] : []),
    ],
  };
}

/** The live fleet map: default centre Nairobi at zoom 9, 420 px high; a plain background if tiles fail. */
export default function FleetMap({ trucks, tileUrl }: { trucks: TTruckTelemetry[]; tileUrl: string }) {
  const [tilesFailed, setTilesFailed] = useState(false);
  const mapStyle = useMemo(() => styleFor(tileUrl, !tilesFailed), [tileUrl, tilesFailed]);
  const located = trucks.filter((t) => t.lat !== null && t.lng !== null);
  return (
    <section className="fleet-map" aria-label="Fleet map">
      <MapView
        initialViewState={NAIROBI}
        style={{ width: '100%', height: 420 }}
        mapStyle={mapStyle}
        // Tiles unreachable (offline, blocked): keep the map usable on a plain background.
        onError={() => setTilesFailed(true)}
        attributionControl={{ compact: true }}
      >
        <NavigationControl position="top-right" showCompass={false} />
        {located.map((t) => (
          // A fresh marker per position: moving an existing one waits for a map repaint that an idle map may not do.
          <Marker key={`${t.truckId}@${t.lat},${t.lng}`} longitude={t.lng!} latitude={t.lat!} anchor="bottom">
            <span
              className={isMoving(t.speed) ? 'truck-marker truck-marker--moving' : 'truck-marker'}
              title={t.plate ?? t.truckId}
            >
              {t.plate ?? t.truckId}
            </span>
          </Marker>
        ))}
      </MapView>
      {tilesFailed ? (
        <p className="muted">Map tiles could not load; truck positions are shown on a plain background.</p>
      ) : null}
    </section>
  );
}
