import { lazy, Suspense, useMemo } from 'react';
import { useParams } from 'react-router';
import { formatClock, formatDateTime, formatTonnes, orderStatusLabel } from '../../../shared/domain/format';
import type { TTruckTelemetry } from '../../../shared/schemas/telemetry';
import type { TTrackedLoad, TTracking } from '../../../shared/schemas/tracking';
import { errorMessage, trpc } from '../../trpc';
import { Badge, loadTone, orderTone } from '../../ui/Badge';
import { Alert } from '../../ui/forms';
import { Page } from '../../ui/Page';

const FleetMap = lazy(() => import('../fleet/FleetMap'));
const MAP_HEIGHT = 240;

const LOAD_LABELS: Record<string, string> = {
  SCHEDULED: 'Scheduled',
  IN_TRANSIT: 'On the way',
  ARRIVED: 'At your site',
  DELIVERED: 'Delivered',
};

/** The loads on the road and the site, as the fleet map draws points. */
function mapPoints(t: TTracking): TTruckTelemetry[] {
  const point = (over: Partial<TTruckTelemetry> & { truckId: string }): TTruckTelemetry => ({
    plate: null,
    lat: null,
    lng: null,
    address: null,
    status: null,
    speed: null,
    idleMinutes: null,
    lastUpdated: null,
    battery: null,
    lastSeen: null,
    driverId: null,
    driverName: null,
    driverPhone: null,
    driverEmail: null,
    ...over,
  });
  const trucks = t.loads.flatMap((l) =>
    l.position
      ? [
          point({
            truckId: `load-${l.id}`,
            plate: l.plate ?? 'Truck',
            lat: l.position.lat,
            lng: l.position.lng,
            speed: l.position.speedKmh,
            lastUpdated: l.position.at,
          }),
        ]
      : [],
  );
  const site = t.sitePoint
    ? [
        point({
          truckId: 'site',
          plate: 'Your site',
          lat: t.sitePoint.lat,
          lng: t.sitePoint.lng,
          lastUpdated: t.asOf,
        }),
      ]
    : [];
  return [...trucks, ...site];
}

function LoadLine({ load }: { load: TTrackedLoad }) {
  return (
    <li className="card track-load">
      <div className="track-load__head">
        <strong>{load.plate ?? 'Truck to be confirmed'}</strong>{' '}
        <Badge tone={loadTone(load.status)}>{LOAD_LABELS[load.status] ?? load.status}</Badge>
      </div>
      <div className="muted">{formatTonnes(load.tonnes)}</div>
      {load.status === 'IN_TRANSIT' ? (
        <p className="track-load__eta">
          {load.etaMinutes !== undefined
            ? `Arrives in about ${load.etaMinutes} min`
            : 'On the way; arrival time not known yet'}
        </p>
      ) : null}
      {load.status === 'ARRIVED' ? <p className="track-load__eta">The truck is at your site.</p> : null}
      {load.status === 'SCHEDULED' && load.scheduledAt ? (
        <p className="muted">Scheduled for {formatDateTime(load.scheduledAt)}</p>
      ) : null}
      {load.deliveredAt ? <p>Delivered {formatDateTime(load.deliveredAt)}</p> : null}
      {load.position ? (
        <p className="muted">Last position at {formatClock(new Date(load.position.at))}</p>
      ) : null}
      {load.driverName ? (
        <p className="muted">
          Driver {load.driverName}
          {load.driverPhone ? (
            <>
              {' · '}
              <a href={`tel:${load.driverPhone}`}>{load.driverPhone}</a>
            </>
          ) : null}
        </p>
      ) : null}
    </li>
  );
}

/** /track/{token}: the customer's live view of an order, public through its unguessable link. */
export function TrackPage() {
  const { token = '' } = useParams();
  const tracking = trpc.tracking.get.useQuery(
    { token },
    {
      retry: false,
      refetchInterval: (q) => (q.state.data ? q.state.data.refreshSeconds * 1000 : false),
      refetchIntervalInBackground: false,
    },
  );
  const t = tracking.data;
  const points = useMemo(() => (t ? mapPoints(t) : []), [t]);
  const now = useMemo(() => (t ? new Date(t.asOf) : new Date()), [t]);

  if (tracking.isLoading)
    return (
      <Page title="Track your order">
        <p className="muted">Loading…</p>
      </Page>
    );
  if (!t)
    return (
      <Page title="Track your order">
        <Alert>{errorMessage(tracking.error, 'Tracking link not found.')}</Alert>
      </Page>
    );
  return (
    <Page
      title={`Order #${t.orderId}`}
      subtitle={
        <>
          <Badge tone={orderTone(t.status)}>{orderStatusLabel(t.status)}</Badge> {t.site}
        </>
      }
    >
      {t.status !== 'DELIVERED' && t.status !== 'CANCELLED' ? (
        <p className="callout">
          Delivery code: <strong className="mono delivery-code">{t.deliveryCode}</strong>
          <br />
          <span className="muted">Give it to the driver when the sand is tipped at your site.</span>
        </p>
      ) : null}
      {points.length > 0 ? (
        <Suspense fallback={<div className="fleet-map fleet-map--loading">Loading map…</div>}>
          <FleetMap trucks={points} tileUrl={t.tileUrl} now={now} height={MAP_HEIGHT} />
        </Suspense>
      ) : null}
      <h2>Loads</h2>
      {t.loads.length === 0 ? (
        <p className="muted">No trucks scheduled yet. This page shows them as soon as they are.</p>
      ) : (
        <ul className="track-loads">
          {t.loads.map((l) => (
            <LoadLine key={l.id} load={l} />
          ))}
        </ul>
      )}
      <p className="muted" aria-live="polite">
        Updated {formatClock(new Date(t.asOf))}; refreshes by itself every {t.refreshSeconds} s.
      </p>
    </Page>
  );
}
