import { lazy, Suspense, useEffect, useState } from 'react';
import { formatDateTime } from '../../../shared/domain/format';
import { idleText } from '../../../shared/domain/telemetry';
import type { TTruckTelemetry } from '../../../shared/schemas/telemetry';
import { errorMessage, trpc } from '../../trpc';
import { Badge } from '../../ui/Badge';
import { Alert } from '../../ui/forms';
import { useNow } from '../../ui/useNow';
import { freshness } from './positions';

const FleetMap = lazy(() => import('./FleetMap'));
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
  const now = useNow();
  const state = freshness(truck, now);
  const where =
    truck.address ??
    (truck.lat !== null && truck.lng !== null
      ? `${truck.lat.toFixed(3)}, ${truck.lng.toFixed(3)}`
      : 'Location refreshing');
  return (
    <>
      <div className="truck-card__head">
        <strong>{truck.plate ?? truck.truckId}</strong>
        {state.lastSeen ? (
          <Badge tone="muted">{state.lastSeen}</Badge>
        ) : (
          <Badge tone={truck.speed === null ? 'neutral' : state.moving ? 'good' : 'warn'}>
            {truck.speed === null ? 'n/a' : `${Math.round(truck.speed)} km/h`}
          </Badge>
        )}
      </div>
      <div>{state.stale ? 'Not reporting' : (truck.status ?? 'Status pending')}</div>
      <div className="muted">{where}</div>
      <div className="muted">
        {truck.lastUpdated ? `Updated ${formatDateTime(truck.lastUpdated, 'short')}` : 'No position yet'}
        {state.stale ? null : ` · ${idleText(truck.idleMinutes)}`}
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
  const utils = trpc.useUtils();
  const [error, setError] = useState<string | null>(null);
  const reassign = trpc.admin.trucks.update.useMutation({
    onSuccess: () => {
      setError(null);
      void utils.telemetry.trucks.invalidate();
      void utils.admin.trucks.list.invalidate();
    },
    onError: (e) => setError(errorMessage(e, 'Failed to update assignment.')),
  });
  return (
    <li className="card truck-card">
      <TruckSummary truck={truck} />
      {allowReassign ? (
        <label className="inline-form">
          <span>Driver</span>
          <select
            aria-label={`Driver for ${truck.plate ?? truck.truckId}`}
            value={truck.driverId ?? ''}
            disabled={reassign.isPending}
            onChange={(e) => reassign.mutate({ id: truck.truckId, primaryDriverId: e.target.value || null })}
          >
            <option value="">No primary driver</option>
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
            : 'No primary driver assigned yet.'}
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

/** Live trucks: the map and a card per truck, refreshed every 30 s (quietly when the timer fires). */
export function FleetPanel({ allowReassign }: { allowReassign: boolean }) {
  const trucks = trpc.telemetry.trucks.useQuery(undefined, {
    refetchInterval: FLEET_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
  const config = trpc.telemetry.mapConfig.useQuery(undefined, { staleTime: Number.POSITIVE_INFINITY });
  const drivers = trpc.admin.drivers.list.useQuery(undefined, { enabled: allowReassign });
  const now = useNow();
  const [manual, setManual] = useState(false);
  useEffect(() => {
    if (!trucks.isFetching) setManual(false);
  }, [trucks.isFetching]);

  return (
    <section aria-labelledby="fleet-heading">
      <div className="toolbar">
        <h2 id="fleet-heading" style={{ margin: 0 }}>
          Fleet
        </h2>
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => {
            setManual(true);
            void trucks.refetch();
          }}
        >
          {manual && trucks.isFetching ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      {trucks.error ? <Alert>Unable to fetch live truck data</Alert> : null}
      {config.data && trucks.data ? (
        <Suspense fallback={<div className="fleet-map fleet-map--loading">Loading map…</div>}>
          <FleetMap trucks={trucks.data} tileUrl={config.data.tileUrl} now={now} />
        </Suspense>
      ) : null}
      {trucks.data && trucks.data.length === 0 ? <p className="muted">No trucks registered yet.</p> : null}
      <ul className="truck-cards">
        {(trucks.data ?? []).map((t) => (
          <TruckCard key={t.truckId} truck={t} allowReassign={allowReassign} drivers={drivers.data ?? []} />
        ))}
      </ul>
    </section>
  );
}
