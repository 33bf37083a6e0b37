import { useState } from 'react';
import { trpc } from '../../trpc';
import { Alert, SelectField } from '../../ui/forms';
import type { TabProps } from '../ops/tab-props';
import { PhaseMedians, TripList } from './TripsView';

/** Cycle times of delivered loads per truck or driver (7 or 30 days): medians, slowest trips and causes. */
export function TripsTab(_props: TabProps) {
  const [days, setDays] = useState<7 | 30>(7);
  const [by, setBy] = useState<'truck' | 'driver'>('truck');
  const report = trpc.admin.trips.report.useQuery({ days, by });
  return (
    <section aria-labelledby="trips-heading">
      <h2 id="trips-heading">Trips</h2>
      <p className="muted">
        Round trips from the geofences: waiting at the yard, loading, travel out, time on site and the return.
      </p>
      <div className="toolbar">
        <SelectField
          label="Period"
          value={String(days)}
          onChange={(e) => setDays(Number(e.target.value) as 7 | 30)}
        >
          <option value="7">Last 7 days</option>
          <option value="30">Last 30 days</option>
        </SelectField>
        <SelectField label="Per" value={by} onChange={(e) => setBy(e.target.value as 'truck' | 'driver')}>
          <option value="truck">Truck</option>
          <option value="driver">Driver</option>
        </SelectField>
      </div>
      {report.error ? <Alert>Failed to load trips.</Alert> : null}
      {report.data && report.data.groups.length === 0 ? (
        <p className="muted">No delivered trips in this period.</p>
      ) : null}
      <ul className="plain-list">
        {(report.data?.groups ?? []).map((g) => (
          <li key={g.key} className="card">
            <h3>
              {g.name} · {g.trips} {g.trips === 1 ? 'trip' : 'trips'}
            </h3>
            <h4>Medians</h4>
            <PhaseMedians medians={g.medians} />
            <h4>Slowest</h4>
            <TripList label={`Slowest trips of ${g.name}`} trips={g.slowest} showDriver />
          </li>
        ))}
      </ul>
    </section>
  );
}
