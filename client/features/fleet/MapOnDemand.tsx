import { type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import type { StaffT } from '../../i18n/staff';

/** How far below the screen the map starts loading, so it is there by the time it is scrolled to. */
const NEAR_VIEWPORT = '0px 0px 200px 0px';

/** The words of the map's block before the map is there, in the screen's catalog. */
export interface MapLabels {
  /** The block's name (FleetMap's section label). */
  map: string;
  fitAll: string;
  zoomIn: string;
  zoomOut: string;
  attribution: string;
  /** While the map's code loads. */
  loading: string;
  /** The button that loads it. */
  show: string;
}

/** The staff screens' words for it (FleetMap's own, from the staff catalog). */
export const staffMapLabels = (t: StaffT): MapLabels => ({
  map: t('fleet.map'),
  fitAll: t('fleet.fitAll'),
  zoomIn: t('fleet.zoomIn'),
  zoomOut: t('fleet.zoomOut'),
  attribution: t('fleet.attribution'),
  loading: t('fleet.loadingMap'),
  show: t('fleet.showMap'),
});

/**
 * The fleet map's block before the map is there: the same toolbar, map box and attribution line as
 * FleetMap, so the page does not move when the map replaces it. `action` sits in the map box.
 */
function MapPlaceholder({
  height,
  labels,
  action,
}: {
  height: number;
  labels: MapLabels;
  action: ReactNode;
}) {
  return (
    <section className="fleet-map-block" aria-label={labels.map} data-map="placeholder">
      <div className="map-toolbar">
        <button type="button" className="button button--small button--secondary" disabled>
          {labels.fitAll}
        </button>
        <button
          type="button"
          className="button button--small button--secondary"
          aria-label={labels.zoomIn}
          disabled
        >
          <span aria-hidden="true">+</span>
        </button>
        <button
          type="button"
          className="button button--small button--secondary"
          aria-label={labels.zoomOut}
          disabled
        >
          <span aria-hidden="true">−</span>
        </button>
      </div>
      <div className="fleet-map">
        <div className="fleet-map--loading" style={{ height }}>
          {action}
        </div>
      </div>
      <p className="map-attribution">{labels.attribution}</p>
    </section>
  );
}

/**
 * A map that loads only when it is looked at (issue 28): its chunk (maplibre, 1.45 s of main thread on a
 * slow phone) is asked for once the block comes near the screen (when `nearby`), or at a tap on "Show
 * map", never with the screen's first load. Until then, and while the chunk loads, a placeholder of the
 * map's own height holds its place. `ready` is false while the map's data is not there yet. The first
 * render is always the placeholder, so a page the server drew hydrates to the same markup (the server
 * cannot draw the map, and a lazy component there would leave React a boundary to redo).
 */
export function MapOnDemand({
  height,
  ready,
  nearby = true,
  labels,
  children,
}: {
  height: number;
  ready: boolean;
  /** Load the map when its block comes near the screen; false: only at a tap. */
  nearby?: boolean;
  labels: MapLabels;
  /** The lazy map itself (rendered inside a Suspense boundary). */
  children: ReactNode;
}) {
  const [wanted, setWanted] = useState(false);
  const slot = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = slot.current;
    // Watched once the data is there: before, the screen's lists are still short and the block higher up
    // than where it settles.
    if (wanted || !ready || !nearby || !element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setWanted(true);
      },
      { rootMargin: NEAR_VIEWPORT },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [wanted, ready, nearby]);

  const loading = <MapPlaceholder height={height} labels={labels} action={labels.loading} />;
  return (
    <div ref={slot}>
      {wanted && ready ? (
        <Suspense fallback={loading}>{children}</Suspense>
      ) : wanted ? (
        loading
      ) : (
        <MapPlaceholder
          height={height}
          labels={labels}
          action={
            <button type="button" className="button button--secondary" onClick={() => setWanted(true)}>
              {labels.show}
            </button>
          }
        />
      )}
    </div>
  );
}
