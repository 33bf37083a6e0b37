import { formatDateTime } from '../../../shared/domain/format';
import { trpc } from '../../trpc';
import { DataList } from '../../ui/DataList';
import { Alert } from '../../ui/forms';
import { Money } from '../../ui/Money';

/** Each delivered trip's margin, and per truck the trips less the costs that belong to no trip. */
export function TripProfit({ range }: { range: { from: string; to: string } | undefined }) {
  const report = trpc.admin.finance.trips.list.useQuery(range);
  return (
    <div className="card">
      <h3>Profit per trip</h3>
      <p className="muted">
        Revenue less the fuel share (km × the truck's measured consumption × price paid), loading and
        offloading costs named to the load, the driver's allowance and county cess.
      </p>
      {report.error ? <Alert>Failed to load trip profit.</Alert> : null}
      <DataList
        label="Profit per trip"
        rows={report.data?.trips ?? []}
        rowKey={(t) => t.assignmentId}
        title={(t) => `#${t.assignmentId} · ${t.plate ?? t.truckId} · ${t.site}`}
        empty={report.data ? 'No delivered trips in this range.' : null}
        columns={[
          {
            header: 'Trip',
            cell: (t) => `#${t.assignmentId} · ${t.plate ?? t.truckId} · ${t.site}`,
            hideOnCard: true,
          },
          { header: 'Delivered', cell: (t) => formatDateTime(t.deliveredAt) },
          {
            header: 'Km',
            numeric: true,
            cell: (t) => `${t.km ?? '–'} (${t.kmSource === 'gps' ? 'GPS' : 'order'})`,
          },
          { header: 'Revenue', numeric: true, cell: (t) => <Money value={t.revenue} /> },
          { header: 'Fuel', numeric: true, cell: (t) => <Money value={t.fuel} /> },
          { header: 'Load costs', numeric: true, cell: (t) => <Money value={t.linkedCosts} /> },
          { header: 'Allowance + cess', numeric: true, cell: (t) => <Money value={t.allowance + t.cess} /> },
          { header: 'Margin', numeric: true, cell: (t) => <Money value={t.margin} /> },
        ]}
      />
      <h4>Per truck</h4>
      <DataList
        label="Trip profit per truck"
        rows={report.data?.trucks ?? []}
        rowKey={(r) => r.truckId}
        title={(r) => r.plate ?? r.truckId}
        columns={[
          { header: 'Truck', cell: (r) => r.plate ?? r.truckId, hideOnCard: true },
          { header: 'Trips', numeric: true, cell: (r) => r.trips },
          { header: 'Trips margin', numeric: true, cell: (r) => <Money value={r.tripsMargin} /> },
          { header: 'Costs of no trip', numeric: true, cell: (r) => <Money value={r.unallocatedCost} /> },
          { header: 'Margin', numeric: true, cell: (r) => <Money value={r.margin} /> },
        ]}
      />
    </div>
  );
}
