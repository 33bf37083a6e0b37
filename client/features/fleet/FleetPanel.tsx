import { lazy, Suspense, useEffect, useState } from 'react';
import type { TTruckTelemetry } from '../../../shared/schemas/telemetry';
import { useFormat } from '../../i18n/format';
import { type StaffT, useStaffT } from '../../i18n/staff';
import { errorMessage, trpc } from '../../trpc';
import { Badge } from '../../ui/Badge';
import { Alert } from '../../ui/forms';
import { TABLE_MIN_WIDTH, useMinWidth } from '../../ui/useMediaQuery';
import { useNow } from '../../ui/useNow';
import { MapOnDemand, staffMapLabels } from './MapOnDemand';
import { freshness } from './positions';

const FleetMap = lazy(() => import('./FleetMap'));

/** How long a truck has stood still (the wording of idleText in shared/domain/telemetry.ts). */
function idleLabel(t: StaffT, minutes: number | null | undefined): string {
  if (minutes === null || minutes === undefined) return t('fleet.idleNa');
  if (minutes < 1) return t('fleet.idleUnderMinute');
  if (minutes < 120) return t('fleet.idleMinutes', { minutes });
  return t('fleet.idleHours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}
export const FLEET_REFRESH_MS = 30_000;

/**
 * Plate, speed badge, status, where and when: the part of a truck card every screen shows. A truck
 * silent for more than 5 minutes shows when it was last seen instead of a speed that is no longer true.
 */
export function TruckSummary({
  truck,
}: {
  truck: Pick<
    TTruckTelemetry,
    'truckId' | 'plate' | 'speed' | 'status' | 'address' | 'lat' | 'lng' | 'lastUpdated' | 'idleMinutes'
  >;
}) {
  const { t } = useStaffT();
  const { dateTime, locale } = useFormat();
  const now = useNow();
  const state = freshness(truck, now, locale);
  const lastSeen = state.silentFor ? t('fleet.lastSeen', { duration: state.silentFor }) : null;
  const near = truck.address?.match(/^Near (.+)$/)?.[1];
  const where =
    (near ? t('fleet.near', { place: near }) : truck.address) ??
    (truck.lat !== null && truck.lng !== null
      ? `${truck.lat.toFixed(3)}, ${truck.lng.toFixed(3)}`
      : t('fleet.locationRefreshing'));
  return (
    <>
      <div className="truck-card__head">
        <strong>{truck.plate ?? truck.truckId}</strong>
        {lastSeen ? (
          <Badge tone="muted">{lastSeen}</Badge>
        ) : (
          <Badge tone={truck.speed === null ? 'neutral' : state.moving ? 'good' : 'warn'}>
            {truck.speed === null ? t('common.na') : `${Math.round(truck.speed)} km/h`}
          </Badge>
        )}
      </div>
      <div>
        {state.stale
          ? t('fleet.notReporting')
          : truck.status === 'moving'
            ? t('fleet.moving')
            : truck.status === 'stopped'
              ? t('fleet.stopped')
              : (truck.status ?? t('fleet.statusPending'))}
      </div>
      <div className="muted">{where}</div>
      <div className="muted">
        {truck.lastUpdated
          ? t('fleet.updated', { at: dateTime(truck.lastUpdated, 'short') })
          : t('fleet.noPosition')}
        {state.stale ? null : ` · ${idleLabel(t, truck.idleMinutes)}`}
      </div>
    </>
  );
}

function TruckCard({
  truck,
  allowReassign,
  drivers,
}: {
  truck: TTruckTelemetry;
  allowReassign: boolean;
  drivers: Array<{ id: string; name: string }>;
}) {
  const { t } = useStaffT();
  const utils = trpc.useUtils();
  const [error, setError] = useState<string | null>(null);
  const reassign = trpc.admin.trucks.update.useMutation({
    onSuccess: () => {
      setError(null);
      void utils.telemetry.trucks.invalidate();
      void utils.admin.trucks.list.invalidate();
    },
    onError: (e) => setError(errorMessage(e, t('fleet.updateFailed'))),
  });
  return (
    <li className="card truck-card">
      <TruckSummary truck={truck} />
      {allowReassign ? (
        <label className="inline-form">
          <span>{t('common.driver')}</span>
          <select
            aria-label={t('fleet.driverFor', { truck: truck.plate ?? truck.truckId })}
            value={truck.driverId ?? ''}
            disabled={reassign.isPending}
            onChange={(e) => reassign.mutate({ id: truck.truckId, primaryDriverId: e.target.value || null })}
          >
            <option value="">{t('fleet.noPrimaryDriver')}</option>
            {drivers.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <div>
          {truck.driverName
            ? `${truck.driverName}${truck.driverPhone ? ` · ${truck.driverPhone}` : ''}`
            : t('fleet.noDriverAssigned')}
        </div>
      )}
      {error ? (
        <div role="alert" className="field__error">
          {error}
        </div>
      ) : null}
    </li>
  );
}

/** The fleet map's height (px), the one FleetMap takes by default. */
const FLEET_MAP_HEIGHT = 420;

/**
 * Live trucks: the map and a card per truck, refreshed every 30 s (quietly when the timer fires). Where
 * the map sits and when it loads (issue 28: maplibre is 1.45 s of a slow phone's main thread, and the
 * cards carry the same facts):
 * - `mapOnDemand` (a screen where it sits under its own form: /fuel): above the cards, loading once
 *   scrolled near or tapped, its place held from the first paint;
 * - otherwise, on a screen at least TABLE_MIN_WIDTH wide: above the cards, loading with them;
 * - otherwise (a phone): under the cards, behind 'Show map', so the cards are what the tab opens on and
 *   the phone fetches and runs the map only when asked (no freeze while scrolling past it either).
 */
export function FleetPanel({
  allowReassign,
  mapOnDemand = false,
}: {
  allowReassign: boolean;
  mapOnDemand?: boolean;
}) {
  const { t } = useStaffT();
  const trucks = trpc.telemetry.trucks.useQuery(undefined, {
    refetchInterval: FLEET_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
  const config = trpc.telemetry.mapConfig.useQuery(undefined, { staleTime: Number.POSITIVE_INFINITY });
  const drivers = trpc.admin.drivers.list.useQuery(undefined, { enabled: allowReassign });
  const now = useNow();
  const wide = useMinWidth(TABLE_MIN_WIDTH);
  const placement = mapOnDemand ? 'near' : wide ? 'open' : 'tap';
  const [manual, setManual] = useState(false);
  useEffect(() => {
    if (!trucks.isFetching) setManual(false);
  }, [trucks.isFetching]);

  const map =
    placement === 'open' ? (
      config.data && trucks.data ? (
        <Suspense fallback={<div className="fleet-map fleet-map--loading">{t('fleet.loadingMap')}</div>}>
          <FleetMap trucks={trucks.data} tileUrl={config.data.tileUrl} now={now} />
        </Suspense>
      ) : null
    ) : (
      <MapOnDemand
        height={FLEET_MAP_HEIGHT}
        ready={Boolean(config.data && trucks.data)}
        nearby={placement === 'near'}
        labels={staffMapLabels(t)}
      >
        {config.data && trucks.data ? (
          <FleetMap trucks={trucks.data} tileUrl={config.data.tileUrl} now={now} height={FLEET_MAP_HEIGHT} />
        ) : null}
      </MapOnDemand>
    );

  return (
    <section aria-labelledby="fleet-heading">
      <div className="toolbar">
        <h2 id="fleet-heading" style={{ margin: 0 }}>
          {t('tabs.fleet')}
        </h2>
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => {
            setManual(true);
            void trucks.refetch();
          }}
        >
          {manual && trucks.isFetching ? t('common.refreshing') : t('common.refresh')}
        </button>
      </div>
      {trucks.error ? <Alert>{t('fleet.fetchFailed')}</Alert> : null}
      {placement === 'tap' ? null : map}
      {trucks.data && trucks.data.length === 0 ? <p className="muted">{t('fleet.noTrucks')}</p> : null}
      <ul className="truck-cards">
        {(trucks.data ?? []).map((truck) => (
          <TruckCard
            key={truck.truckId}
            truck={truck}
            allowReassign={allowReassign}
            drivers={drivers.data ?? []}
          />
        ))}
      </ul>
      {placement === 'tap' ? map : null}
    </section>
  );
}
