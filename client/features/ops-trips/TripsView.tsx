import type { TTrip } from '../../../shared/schemas/trips';
import { useDateTime } from '../../i18n/format';
import { type StaffT, useStaffT } from '../../i18n/staff';
import { DataList } from '../../ui/DataList';

type Minutes = TTrip['minutes'];
const PHASES: Array<[keyof Minutes, (t: StaffT) => string]> = [
  ['yardWait', (t) => t('trips.yardWait')],
  ['loading', (t) => t('trips.loading')],
  ['travelOut', (t) => t('trips.travelOut')],
  ['onSite', (t) => t('trips.onSite')],
  ['return', (t) => t('trips.return')],
  ['total', (t) => t('trips.roundTrip')],
];

export const mins = (t: StaffT, v: number | null) =>
  v === null
    ? '–'
    : v >= 60
      ? t('trips.hours', { hours: Math.floor(v / 60), minutes: v % 60 })
      : t('trips.minutes', { minutes: v });

/** Median minutes per phase as label–value pairs. */
export function PhaseMedians({ medians }: { medians: Minutes }) {
  const { t } = useStaffT();
  return (
    <dl className="kv">
      {PHASES.map(([k, label]) => (
        <div key={k} style={{ display: 'contents' }}>
          <dt>{label(t)}</dt>
          <dd>{mins(t, medians[k])}</dd>
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
  const { t } = useStaffT();
  const dateTime = useDateTime();
  return (
    <DataList
      label={label}
      rows={trips}
      rowKey={(trip) => trip.assignmentId}
      title={(trip) => t('trips.loadTitle', { id: trip.assignmentId, site: trip.site })}
      empty={t('trips.none')}
      columns={[
        { header: t('trips.load'), cell: (trip) => `#${trip.assignmentId} · ${trip.site}`, hideOnCard: true },
        { header: t('trips.delivered'), cell: (trip) => dateTime(trip.deliveredAt) },
        ...(showDriver
          ? [
              {
                header: t('trips.truckDriver'),
                cell: (trip: TTrip) => `${trip.plate ?? trip.truckId} · ${trip.driverName ?? '–'}`,
              },
            ]
          : []),
        { header: t('trips.roundTrip'), cell: (trip) => mins(t, trip.minutes.total), numeric: true },
        { header: t('trips.onSite'), cell: (trip) => mins(t, trip.minutes.onSite), numeric: true },
        { header: t('trips.cause'), cell: (trip) => trip.cause ?? '–' },
      ]}
    />
  );
}
