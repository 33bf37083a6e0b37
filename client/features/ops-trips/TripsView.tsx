import { formatDateTime } from '../../../shared/domain/format';
import type { TTrip } from '../../../shared/schemas/trips';
import { DataList } from '../../ui/DataList';

type Minutes = TTrip['minutes'];
const PHASES: Array<[keyof Minutes, string]> = [
  ['yardWait', 'Yard wait'],
  ['loading', 'Loading'],
  ['travelOut', 'Travel out'],
  ['onSite', 'On site'],
  ['return', 'Return'],
  ['total', 'Round trip'],
];

export const mins = (v: number | null) =>
  v === null ? '–' : v >= 60 ? `${Math.floor(v / 60)} h ${v % 60} min` : `${v} min`;

/** Median minutes per phase as label–value pairs. */
export function PhaseMedians({ medians }: { medians: Minutes }) {
  return (
    <dl className="kv">
      {PHASES.map(([k, label]) => (
        <div key={k} style={{ display: 'contents' }}>
          <dt>{label}</dt>
          <dd>{mins(medians[k])}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Trips with their phases and, when slow, the cause. */
export function TripList({
  label,
  trips,
  showDriver,
}: {
  label: string;
  trips: TTrip[];
  showDriver?: boolean;
}) {
  return (
    <DataList
      label={label}
      rows={trips}
      rowKey={(t) => t.assignmentId}
      title={(t) => `Load #${t.assignmentId} · ${t.site}`}
      empty="No delivered trips in this period."
      columns={[
        { header: 'Load', cell: (t) => `#${t.assignmentId} · ${t.site}`, hideOnCard: true },
        { header: 'Delivered', cell: (t) => formatDateTime(t.deliveredAt) },
        ...(showDriver
          ? [
              {
                header: 'Truck · driver',
                cell: (t: TTrip) => `${t.plate ?? t.truckId} · ${t.driverName ?? '–'}`,
              },
            ]
          : []),
        { header: 'Round trip', cell: (t) => mins(t.minutes.total), numeric: true },
        { header: 'On site', cell: (t) => mins(t.minutes.onSite), numeric: true },
        { header: 'Cause', cell: (t) => t.cause ?? '–' },
      ]}
    />
  );
}
