import { type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { useStaffT } from '../../i18n/staff';

/** How far below the screen the map starts loading, so it is there by the time it is scrolled to. */
const NEAR_VIEWPORT = '0px 0px 200px 0px';

/**
 * The fleet map's block before the map is there: the same toolbar, map box and attribution line as
 * FleetMap, so the page does not move when the map replaces it. `action` sits in the map box.
 */
function MapPlaceholder({ height, action }: { height: number; action: ReactNode }) {
  const { t } = useStaffT();
  return (
    <section className="fleet-map-block" aria-label={t('fleet.map')} data-map="placeholder">
      <div className="map-toolbar">
        <button type="button" className="button button--small button--secondary" disabled>
          {t('fleet.fitAll')}
        </button>
        <button
          type="button"
          className="button button--small button--secondary"
          aria-label={t('fleet.zoomIn')}
          disabled
        >
          <span aria-hidden="true">+</span>
        </button>
        <button
          type="button"
          className="button button--small button--secondary"
          aria-label={t('fleet.zoomOut')}
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
      <p className="map-attribution">{t('fleet.attribution')}</p>
    </section>
  );
}

/**
 * A map that loads only when it is looked at (issue 28): its chunk (maplibre, 1.45 s of main thread on a
 * slow phone) is asked for once the block comes near the screen, or at a tap on "Show map", never with
 * the screen's first load. Until then, and while the chunk loads, a placeholder of the map's own height
 * holds its place. `ready` is false while the map's data is not there yet.
 */
export function MapOnDemand({
  height,
  ready,
  children,
}: {
  height: number;
  ready: boolean;
  /** The lazy map itself (rendered inside a Suspense boundary). */
  children: ReactNode;
}) {
  const { t } = useStaffT();
  const [wanted, setWanted] = useState(false);
  const slot = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = slot.current;
    // Watched once the data is there: before, the screen's lists are still short and the block higher up
    // than where it settles.
    if (wanted || !ready || !element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setWanted(true);
      },
      { rootMargin: NEAR_VIEWPORT },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [wanted, ready]);

  const loading = <MapPlaceholder height={height} action={t('fleet.loadingMap')} />;
  return (
    <div ref={slot}>
      {wanted && ready ? (
        <Suspense fallback={loading}>{children}</Suspense>
      ) : wanted ? (
        loading
      ) : (
        <MapPlaceholder
          height={height}
          action={
            <button type="button" className="button button--secondary" onClick={() => setWanted(true)}>
              {t('fleet.showMap')}
            </button>
          }
        />
      )}
    </div>
  );
}
