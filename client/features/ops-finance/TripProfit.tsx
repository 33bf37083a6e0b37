import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { TRIP_PROFIT_MAX_TRIPS, TRIP_PROFIT_PAGE } from '../../../shared/schemas/trip-profit';
import { useFormat } from '../../i18n/format';
import { useStaffT } from '../../i18n/staff';
import { trpc } from '../../trpc';
import { DataList } from '../../ui/DataList';
import { Alert } from '../../ui/forms';
import { Money } from '../../ui/Money';

/**
 * Each delivered trip's margin (the latest page of them, more on a tap), and per truck all its trips less the
 * costs that belong to no trip.
 */
export function TripProfit({ range }: { range: { from: string; to: string } | undefined }) {
  const { t } = useStaffT();
  const format = useFormat();
  const [limit, setLimit] = useState(TRIP_PROFIT_PAGE);
  // The list that is there stays while a longer one loads (nothing jumps back to empty).
  const report = trpc.admin.finance.trips.list.useQuery(
    { ...range, limit },
    { placeholderData: keepPreviousData },
  );
  const shown = report.data?.trips.length ?? 0;
  const count = report.data?.tripCount ?? 0;
  return (
    <div className="card">
      <h3>{t('finance.tripProfit')}</h3>
      <p className="muted">{t('finance.tripProfitIntro')}</p>
      {report.error ? <Alert>{t('finance.tripProfitFailed')}</Alert> : null}
      <DataList
        label={t('finance.tripProfit')}
        rows={report.data?.trips ?? []}
        rowKey={(trip) => trip.assignmentId}
        title={(trip) => `#${trip.assignmentId} · ${trip.plate ?? trip.truckId} · ${trip.site}`}
        empty={report.data ? t('finance.noTrips') : null}
        columns={[
          {
            header: t('finance.trip'),
            cell: (trip) => `#${trip.assignmentId} · ${trip.plate ?? trip.truckId} · ${trip.site}`,
            hideOnCard: true,
          },
          { header: t('finance.delivered'), cell: (trip) => format.dateTime(trip.deliveredAt) },
          {
            header: t('finance.km'),
            numeric: true,
            cell: (trip) =>
              `${trip.km ?? '–'} (${trip.kmSource === 'gps' ? t('finance.kmGps') : t('finance.kmOrder')})`,
          },
          { header: t('finance.revenue'), numeric: true, cell: (trip) => <Money value={trip.revenue} /> },
          { header: t('finance.fuel'), numeric: true, cell: (trip) => <Money value={trip.fuel} /> },
          {
            header: t('finance.loadCosts'),
            numeric: true,
            cell: (trip) => <Money value={trip.linkedCosts} />,
          },
          {
            header: t('finance.allowanceCess'),
            numeric: true,
            cell: (trip) => <Money value={trip.allowance + trip.cess} />,
          },
          { header: t('finance.margin'), numeric: true, cell: (trip) => <Money value={trip.margin} /> },
        ]}
      />
      {count > shown ? (
        <div className="button-row">
          <p className="muted">
            {t('finance.tripsShown', { shown: format.number(shown), count: format.number(count) })}
          </p>
          {shown < TRIP_PROFIT_MAX_TRIPS ? (
            <button
              type="button"
              className="button button--secondary"
              disabled={report.isFetching}
              onClick={() => setLimit((l) => Math.min(l + TRIP_PROFIT_PAGE, TRIP_PROFIT_MAX_TRIPS))}
            >
              {t('finance.moreTrips')}
            </button>
          ) : null}
        </div>
      ) : null}
      <h4>{t('finance.perTruck')}</h4>
      <DataList
        label={t('finance.perTruckLabel')}
        rows={report.data?.trucks ?? []}
        rowKey={(r) => r.truckId}
        title={(r) => r.plate ?? r.truckId}
        columns={[
          { header: t('common.truck'), cell: (r) => r.plate ?? r.truckId, hideOnCard: true },
          { header: t('finance.trips'), numeric: true, cell: (r) => r.trips },
          { header: t('finance.tripsMargin'), numeric: true, cell: (r) => <Money value={r.tripsMargin} /> },
          {
            header: t('finance.costsNoTrip'),
            numeric: true,
            cell: (r) => <Money value={r.unallocatedCost} />,
          },
          { header: t('finance.margin'), numeric: true, cell: (r) => <Money value={r.margin} /> },
        ]}
      />
    </div>
  );
}
