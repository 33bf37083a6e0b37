import 'maplibre-gl/dist/maplibre-gl.css';
import { type StyleSpecification, setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { useCallback, useMemo, useRef, useState } from 'react';
import MapView, { type MapRef, Marker } from 'react-map-gl/maplibre';
import type { TTruckTelemetry } from '../../../shared/schemas/telemetry';
import { useFormat } from '../../i18n/format';
import { useStaffT } from '../../i18n/staff';
import { boundsOf, freshness, groupOverlapping } from './positions';

// Bundled maplibre cannot find its worker by itself (STACK-NOTES).
setWorkerUrl(workerUrl);

const NAIROBI = { longitude: 36.8219, latitude: -1.2921, zoom: 9 };
const MAP_HEIGHT = 420;
/** A plate label's box above its point (px): closer than this, two labels collide. */
const LABEL = { width: 84, height: 32 };
/** Up to this many trucks on one spot are stacked; more become one "N trucks" marker. */
const MAX_STACK = 4;
/** Room around the fitted trucks: above for a stack of labels, at the sides for a label's width. */
const FIT_PADDING = {
  top: 24 + 2 * LABEL.height,
  bottom: 24,
  left: LABEL.width / 2 + 8,
  right: LABEL.width / 2 + 8,
};

function styleFor(tileUrl: string, withTiles: boolean): StyleSpecification {
  return {
    version: 8,
    sources: withTiles ? { osm: { type: 'raster', tiles: [tileUrl], tileSize: 256 } } : {},
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': '#efe9df' } },
      ...(withTiles ? [{ id: 'osm', type: 'raster' as const, source: 'osm' }] : []),
    ],
  };
}

type Located = TTruckTelemetry & { lat: number; lng: number };

/** A plate on the map: green when moving now, grey when it has not reported for a while. */
function TruckLabel({ truck, now }: { truck: Located; now: Date }) {
  const { t } = useStaffT();
  const { locale } = useFormat();
  const state = freshness(truck, now, locale);
  const name = truck.plate ?? truck.truckId;
  const lastSeen = state.silentFor ? t('fleet.lastSeen', { duration: state.silentFor }) : null;
  return (
    <span
      className={
        state.stale
          ? 'truck-marker truck-marker--stale'
          : state.moving
            ? 'truck-marker truck-marker--moving'
            : 'truck-marker'
      }
      title={lastSeen ? `${name} · ${lastSeen}` : name}
    >
      {name}
    </span>
  );
}

function TruckMarker({ truck, now, lift = 0 }: { truck: Located; now: Date; lift?: number }) {
  return (
    // A fresh marker per position: moving an existing one waits for a map repaint that an idle map may not do.
    <Marker longitude={truck.lng} latitude={truck.lat} anchor="bottom" offset={[0, -lift]}>
      <TruckLabel truck={truck} now={now} />
    </Marker>
  );
}

/**
 * The live fleet map (Nairobi at zoom 9 until the trucks load, 420 px high): it fits every truck when it
 * opens and on 'Fit all trucks'; labels that would overlap are stacked, and a crowd becomes one marker
 * that zooms in. The zoom buttons sit above the map, never on a marker. The truck cards under the map
 * carry the same facts for screen readers.
 */
export default function FleetMap({
  trucks,
  tileUrl,
  now,
  height = MAP_HEIGHT,
}: {
  trucks: TTruckTelemetry[];
  tileUrl: string;
  now: Date;
  /** A smaller map (the customer's tracking page); the fleet's is 420 px high. */
  height?: number;
}) {
  const { t } = useStaffT();
  const mapRef = useRef<MapRef>(null);
  const [tilesFailed, setTilesFailed] = useState(false);
  // Moves on after every pan or zoom: the overlap of labels is a matter of screen pixels.
  const [view, setView] = useState(0);
  // A crowd on one spot that zooming cannot split (trucks parked at the yard), opened as a list.
  const [opened, setOpened] = useState<string | null>(null);
  const mapStyle = useMemo(() => styleFor(tileUrl, !tilesFailed), [tileUrl, tilesFailed]);
  const located = useMemo(
    () => trucks.filter((t): t is Located => t.lat !== null && t.lng !== null),
    [trucks],
  );

  // Open on the trucks themselves (Nairobi at zoom 9 when none has a position yet).
  const [initialView] = useState(() => {
    const bounds = boundsOf(located);
    return bounds ? { bounds, fitBoundsOptions: { padding: FIT_PADDING, maxZoom: 14 } } : NAIROBI;
  });

  const fitAll = useCallback(
    (animate: boolean) => {
      const bounds = boundsOf(located);
      if (!bounds || !mapRef.current) return;
      mapRef.current.fitBounds(bounds, { padding: FIT_PADDING, maxZoom: 14, duration: animate ? 600 : 0 });
    },
    [located],
  );

  const groups = useMemo(() => {
    const map = mapRef.current;
    if (!map || view === 0) return located.map((t) => ({ keys: [t.truckId] }));
    const points = located.map((t) => ({ key: t.truckId, ...map.project([t.lng, t.lat]) }));
    return groupOverlapping(points, LABEL.width, LABEL.height);
  }, [located, view]);
  const byId = new Map(located.map((t) => [t.truckId, t]));

  return (
    <section
      className="fleet-map-block"
      aria-label={t('fleet.map')}
      data-ready={view > 0 ? 'true' : undefined}
    >
      <div className="map-toolbar">
        <button
          type="button"
          className="button button--small button--secondary"
          disabled={located.length === 0}
          onClick={() => fitAll(true)}
        >
          {t('fleet.fitAll')}
        </button>
        <button
          type="button"
          className="button button--small button--secondary"
          aria-label={t('fleet.zoomIn')}
          onClick={() => mapRef.current?.zoomIn()}
        >
          <span aria-hidden="true">+</span>
        </button>
        <button
          type="button"
          className="button button--small button--secondary"
          aria-label={t('fleet.zoomOut')}
          onClick={() => mapRef.current?.zoomOut()}
        >
          <span aria-hidden="true">−</span>
        </button>
      </div>
      <div className="fleet-map">
        <MapView
          ref={mapRef}
          initialViewState={initialView}
          style={{ width: '100%', height }}
          mapStyle={mapStyle}
          // Tiles unreachable (offline, blocked): keep the map usable on a plain background.
          onError={() => setTilesFailed(true)}
          onLoad={() => setView((v) => v + 1)}
          onMoveEnd={() => setView((v) => v + 1)}
          onClick={() => setOpened(null)}
          attributionControl={false}
        >
          {groups.flatMap((g) => {
            const members = g.keys.map((k) => byId.get(k)).filter((t): t is Located => t !== undefined);
            const [first] = members;
            if (!first) return [];
            if (members.length > MAX_STACK) {
              const crowd = members.map((m) => m.truckId).join('+');
              return [
                <Marker key={`crowd-${crowd}`} longitude={first.lng} latitude={first.lat} anchor="bottom">
                  {opened === crowd ? (
                    <ul className="marker-list" aria-label={t('fleet.crowdList', { count: members.length })}>
                      {members.map((m) => (
                        <li key={m.truckId}>
                          <TruckLabel truck={m} now={now} />
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <button
                      type="button"
                      className="marker-cluster"
                      aria-label={t('fleet.crowdShow', { count: members.length })}
                      onClick={(e) => {
                        e.stopPropagation();
                        const bounds = boundsOf(members);
                        const map = mapRef.current;
                        if (!bounds || !map) return;
                        const span = Math.max(bounds[1][0] - bounds[0][0], bounds[1][1] - bounds[0][1]);
                        if (span < 0.0005 || map.getZoom() >= 16) setOpened(crowd);
                        else map.fitBounds(bounds, { padding: FIT_PADDING, maxZoom: 17 });
                      }}
                    >
                      {t('fleet.crowd', { count: members.length })}
                    </button>
                  )}
                </Marker>,
              ];
            }
            // Overlapping labels stand one above the other over the first truck's point.
            return members.map((t, i) => (
              <TruckMarker
                key={`${t.truckId}@${t.lat},${t.lng}@${first.truckId}`}
                truck={members.length > 1 ? { ...t, lat: first.lat, lng: first.lng } : t}
                now={now}
                lift={i * LABEL.height}
              />
            ));
          })}
        </MapView>
        {tilesFailed ? <p className="map-note">{t('fleet.tilesFailed')}</p> : null}
      </div>
      {/* The attribution's line keeps its place when the tiles fail, so nothing under the map moves. */}
      <p className="map-attribution" style={tilesFailed ? { visibility: 'hidden' } : undefined}>
        {t('fleet.attribution')}
      </p>
    </section>
  );
}
