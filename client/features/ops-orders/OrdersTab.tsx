import { useState } from 'react';
import { trpc } from '../../trpc';
import { Alert } from '../../ui/forms';
import type { TabProps } from '../ops/tab-props';
import { NewOrderForm } from './NewOrderForm';
import { OrderRow } from './OrderRow';

const FILTERS = [
  { id: 'all', label: 'All', assigned: undefined },
  { id: 'pending', label: 'Pending', assigned: false },
  { id: 'assigned', label: 'Assigned', assigned: true },
] as const;

export function OrdersTab(_props: TabProps) {
  const [filter, setFilter] = useState<(typeof FILTERS)[number]['id']>('all');
  const assigned = FILTERS.find((f) => f.id === filter)?.assigned;
  const orders = trpc.admin.orders.list.useQuery(assigned === undefined ? undefined : { assigned });
  const trucks = trpc.admin.trucks.list.useQuery();
  const drivers = trpc.admin.drivers.list.useQuery();
  const truckOptions = (trucks.data ?? []).map((t) => ({ id: t.id, label: t.plate || t.id }));
  const driverOptions = (drivers.data ?? []).map((d) => ({ id: d.id, label: d.name }));

  return (
    <section aria-labelledby="orders-heading">
      <h2 id="orders-heading">Orders</h2>
      <NewOrderForm />
      <fieldset className="filter-buttons">
        <legend className="visually-hidden">Filter orders</legend>
        {FILTERS.map((f) => (
          <button
            key={f.id}
            type="button"
            className="button button--small button--secondary"
            aria-pressed={filter === f.id}
            onClick={() => setFilter(f.id)}
          >
            {f.label}
          </button>
        ))}
      </fieldset>
      {orders.error ? <Alert>Failed to load orders. Please refresh.</Alert> : null}
      {orders.data && orders.data.length === 0 ? <p className="muted">No orders here.</p> : null}
      {orders.data && orders.data.length > 0 ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>When</th>
                <th>Customer</th>
                <th>Site</th>
                <th>Sand</th>
                <th>Trucks</th>
                <th>Total</th>
                <th>Payment</th>
                <th>Status</th>
                <th>Assignments</th>
                <th>Add assignment</th>
              </tr>
            </thead>
            <tbody>
              {orders.data.map((o) => (
                <OrderRow key={o.id} order={o} trucks={truckOptions} drivers={driverOptions} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
