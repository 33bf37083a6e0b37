import { lazy, useMemo } from 'react';
import { useParams } from 'react-router';
import { phoneLinks } from '../../../shared/domain/phone';
import { isClosedOrder } from '../../../shared/enums';
import type { TTruckTelemetry } from '../../../shared/schemas/telemetry';
import type { TTrackedLoad, TTracking } from '../../../shared/schemas/tracking';
import { useFormat } from '../../i18n/format';
import { errorMessage, trpc } from '../../trpc';
import { Badge, loadTone, orderTone } from '../../ui/Badge';
import { Alert } from '../../ui/forms';
import { Page } from '../../ui/Page';
import { type MapLabels, MapOnDemand } from '../fleet/MapOnDemand';
import { ReceiptLinks } from '../receipt/ReceiptLink';

const FleetMap = lazy(() => import('../fleet/FleetMap'));
const MAP_HEIGHT = 240;

/** The customer's words for a load's state (catalog keys). */
const LOAD_LABELS: Record<string, string> = {
  SCHEDULED: 'track.scheduled',
  IN_TRANSIT: 'track.onTheWay',
  ARRIVED: 'track.atSite',
  DELIVERED: 'track.deliveredLabel',
};

/** The loads on the road and the site, as the fleet map draws points. */
function mapPoints(t: TTracking, names: { truck: string; site: string }): TTruckTelemetry[] {
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
            plate: l.plate ?? names.truck,
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
          plate: names.site,
          lat: t.sitePoint.lat,
          lng: t.sitePoint.lng,
          lastUpdated: t.asOf,
        }),
      ]
    : [];
  return [...trucks, ...site];
}

function LoadLine({ load }: { load: TTrackedLoad }) {
  const { t, tonnes, dateTime, clock, loadStatus } = useFormat();
  const label = LOAD_LABELS[load.status];
  return (
    <li className="card track-load">
      <div className="track-load__head">
        <strong>{load.plate ?? t('track.truckTbc')}</strong>{' '}
        <Badge tone={loadTone(load.status)}>{label ? t(label) : loadStatus(load.status)}</Badge>
      </div>
      <div className="muted">{tonnes(load.tonnes)}</div>
      {load.status === 'IN_TRANSIT' ? (
        <p className="track-load__eta">
          {load.etaMinutes !== undefined
            ? t('track.arrivesIn', { minutes: load.etaMinutes })
            : t('track.noEta')}
        </p>
      ) : null}
      {load.status === 'ARRIVED' ? <p className="track-load__eta">{t('track.arrived')}</p> : null}
      {load.status === 'SCHEDULED' && load.scheduledAt ? (
        <p className="muted">{t('track.scheduledFor', { when: dateTime(load.scheduledAt) })}</p>
      ) : null}
      {load.deliveredAt ? <p>{t('track.deliveredAt', { when: dateTime(load.deliveredAt) })}</p> : null}
      {load.position ? (
        <p className="muted">{t('track.lastPosition', { time: clock(new Date(load.position.at)) })}</p>
      ) : null}
      {load.driverName ? (
        <p className="muted">
          {t('track.driver', { name: load.driverName })}
          {load.driverPhone ? (
            <>
              {' · '}
              <a href={phoneLinks(load.driverPhone)?.tel ?? `tel:${load.driverPhone}`}>{load.driverPhone}</a>
            </>
          ) : null}
        </p>
      ) : null}
    </li>
  );
}

/** The office to call (or WhatsApp) about the order. */
function DispatchContact({ dispatch }: { dispatch: TTracking['dispatch'] }) {
  const { t } = useFormat();
  const phone = phoneLinks(dispatch.phone);
  return (
    <section className="track-contact" aria-labelledby="track-contact-heading">
      <h2 id="track-contact-heading">{t('track.questions')}</h2>
      <p className="contact-links">
        <a href={phone?.tel ?? `tel:${dispatch.phone.replace(/[^\d+]/g, '')}`}>
          {t('track.callDispatch', { phone: phone?.display ?? dispatch.phone })}
        </a>
        {dispatch.whatsapp ? (
          <a href={dispatch.whatsapp} target="_blank" rel="noreferrer">
            {t('common.whatsapp')}
          </a>
        ) : null}
      </p>
    </section>
  );
}

/** /track/{token}: the customer's live view of an order, public through its unguessable link. */
export function TrackPage() {
  const { t: tr, clock, orderStatus } = useFormat();
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
  const truckName = tr('track.truck');
  const siteName = tr('track.yourSite');
  const points = useMemo(
    () => (t ? mapPoints(t, { truck: truckName, site: siteName }) : []),
    [t, truckName, siteName],
  );
  const now = useMemo(() => (t ? new Date(t.asOf) : new Date()), [t]);
  const mapLabels: MapLabels = {
    map: tr('track.map'),
    fitAll: tr('track.fitAll'),
    zoomIn: tr('track.zoomIn'),
    zoomOut: tr('track.zoomOut'),
    attribution: tr('track.attribution'),
    loading: tr('track.loadingMap'),
    show: tr('track.showMap'),
  };

  if (tracking.isLoading)
    return (
      <Page title={tr('track.title')}>
        <p className="muted">{tr('track.loading')}</p>
      </Page>
    );
  if (!t)
    return (
      <Page title={tr('track.title')}>
        <Alert>{errorMessage(tracking.error, tr('track.notFound'))}</Alert>
      </Page>
    );
  return (
    <Page
      title={tr('track.order', { id: t.orderId })}
      subtitle={
        <>
          <Badge tone={orderTone(t.status)}>{orderStatus(t.status)}</Badge> {t.site}
        </>
      }
    >
      {!isClosedOrder(t.status) ? (
        <p className="callout">
          {tr('track.deliveryCode')} <strong className="mono delivery-code">{t.deliveryCode}</strong>
          <br />
          <span className="muted">{tr('track.giveCode')}</span>
        </p>
      ) : null}
      {points.length > 0 ? (
        // At a tap: the loads' lines already say where each truck is and when it arrives, and the map's
        // code and tiles (~1 MB, 1.3–1.7 s of a slow phone's main thread in Lighthouse) are the customer's
        // data bundle and battery on a page opened cold from an SMS.
        <MapOnDemand height={MAP_HEIGHT} ready nearby={false} labels={mapLabels}>
          <FleetMap trucks={points} tileUrl={t.tileUrl} now={now} height={MAP_HEIGHT} />
        </MapOnDemand>
      ) : null}
      {t.receiptUrl || t.creditNotes.length > 0 ? (
        <p className="track-receipt">
          <ReceiptLinks receiptUrl={t.receiptUrl} creditNotes={t.creditNotes} label={tr('track.receipt')} />
        </p>
      ) : null}
      <h2>{tr('track.loads')}</h2>
      {t.loads.length === 0 ? (
        <p className="muted">{tr('track.none')}</p>
      ) : (
        <ul className="track-loads">
          {t.loads.map((l) => (
            <LoadLine key={l.id} load={l} />
          ))}
        </ul>
      )}
      <DispatchContact dispatch={t.dispatch} />
      <p className="muted" aria-live="polite">
        {tr('track.updated', { time: clock(new Date(t.asOf)), seconds: t.refreshSeconds })}
      </p>
    </Page>
  );
}
