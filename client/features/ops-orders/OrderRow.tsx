import { useState } from 'react';
import { formatKes, orderStatusLabel } from '../../../shared/domain/format';
import type { TListedOrder } from '../../../shared/schemas/orders';
import { errorMessage, trpc } from '../../trpc';

const when = new Intl.DateTimeFormat('en-KE', {
  dateStyle: 'short',
  timeStyle: 'short',
  timeZone: 'Africa/Nairobi',
});

interface Option {
  id: string;
  label: string;
}

/** One order in the workspace table, with its payment review, loads and the add-assignment control. */
export function OrderRow({
  order,
  trucks,
  drivers,
}: {
  order: TListedOrder;
  trucks: Option[];
  drivers: Option[];
}) {
  const utils = trpc.useUtils();
  const refresh = () => {
    void utils.admin.orders.list.invalidate();
    void utils.admin.dashboard.get.invalidate();
    void utils.admin.stock.invalidate();
  };
  const [error, setError] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [reference, setReference] = useState('');
  const [load, setLoad] = useState({ truckId: '', driverId: '', tonnes: '20' });
  const review = trpc.admin.orders.reviewPayment.useMutation({
    onSuccess: refresh,
    onError: (e) => setError(errorMessage(e, 'Failed to update payment.')),
  });
  const add = trpc.admin.orders.addAssignment.useMutation({
    onSuccess: () => {
      setLoad({ truckId: '', driverId: '', tonnes: '20' });
      refresh();
    },
    onError: (e) => setError(errorMessage(e, 'Failed to add assignment.')),
  });
  const move = trpc.admin.orders.setAssignmentStatus.useMutation({
    onSuccess: refresh,
    onError: (e) => setError(errorMessage(e, 'Failed to update assignment.')),
  });
  const busy = review.isPending || add.isPending || move.isPending;
  const closed = order.status === 'DELIVERED' || order.status === 'CANCELLED';

  return (
    <tr>
      <td>{when.format(new Date(order.created_at))}</td>
      <td>
        {order.name}
        {order.email ? <div className="muted">{order.email}</div> : null}
      </td>
      <td>{order.site}</td>
      <td>{order.sand_type}</td>
      <td>{order.trucks}</td>
      <td>{formatKes(order.total)}</td>
      <td>
        <div>{order.payment_status}</div>
        {order.payment_status === 'SUBMITTED' ? (
          <div className="inline-form">
            <button
              type="button"
              className="button button--small"
              disabled={busy}
              onClick={() => review.mutate({ id: order.id, decision: 'confirm' })}
            >
              Confirm payment
            </button>
            <input
              aria-label={`Reason to reject payment for order ${order.id}`}
              placeholder="Reason"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
            <button
              type="button"
              className="button button--small button--secondary"
              disabled={busy}
              onClick={() => review.mutate({ id: order.id, decision: 'reject', note: reason })}
            >
              Reject
            </button>
          </div>
        ) : null}
        {order.payment_status === 'PENDING' || order.payment_status === 'REJECTED' ? (
          <div className="inline-form">
            <input
              aria-label={`Payment reference for order ${order.id}`}
              placeholder="Reference"
              value={reference}
              onChange={(e) => setReference(e.target.value)}
            />
            <button
              type="button"
              className="button button--small button--secondary"
              disabled={busy || !reference.trim()}
              onClick={() => review.mutate({ id: order.id, decision: 'confirm', reference })}
            >
              Record payment
            </button>
          </div>
        ) : null}
      </td>
      <td>{orderStatusLabel(order.status)}</td>
      <td>
        {order.assignments.length === 0 ? <span className="muted">None</span> : null}
        <ul className="plain-list">
          {order.assignments.map((a) => (
            <li key={a.id}>
              {a.plate ?? a.truck_id} · {a.tonnes} t · {a.driver ?? 'no driver'} · <strong>{a.status}</strong>
              {a.status === 'SCHEDULED' || a.status === 'IN_TRANSIT' ? (
                <span className="inline-form">
                  {a.status === 'SCHEDULED' ? (
                    <button
                      type="button"
                      className="button button--small"
                      disabled={busy}
                      onClick={() => move.mutate({ id: a.id, status: 'IN_TRANSIT' })}
                    >
                      In transit
                    </button>
                  ) : null}
                  <button
                    type="button"
                    className="button button--small"
                    disabled={busy}
                    onClick={() => move.mutate({ id: a.id, status: 'DELIVERED' })}
                  >
                    Delivered
                  </button>
                  <button
                    type="button"
                    className="button button--small button--secondary"
                    disabled={busy}
                    onClick={() => move.mutate({ id: a.id, status: 'CANCELLED' })}
                  >
                    Cancel load
                  </button>
                </span>
              ) : null}
            </li>
          ))}
        </ul>
        {error ? (
          <div role="alert" className="field__error">
            {error}
          </div>
        ) : null}
      </td>
      <td>
        {closed ? (
          <span className="muted">Closed</span>
        ) : (
          <div className="inline-form">
            <select
              aria-label={`Truck for order ${order.id}`}
              value={load.truckId}
              onChange={(e) => setLoad((l) => ({ ...l, truckId: e.target.value }))}
            >
              <option value="">Truck…</option>
              {trucks.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.label}
                </option>
              ))}
            </select>
            <select
              aria-label={`Driver for order ${order.id}`}
              value={load.driverId}
              onChange={(e) => setLoad((l) => ({ ...l, driverId: e.target.value }))}
            >
              <option value="">Driver…</option>
              {drivers.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.label}
                </option>
              ))}
            </select>
            <input
              aria-label={`Tonnes for order ${order.id}`}
              type="number"
              min={1}
              step="0.5"
              value={load.tonnes}
              onChange={(e) => setLoad((l) => ({ ...l, tonnes: e.target.value }))}
              style={{ width: '5rem' }}
            />
            <button
              type="button"
              className="button button--small"
              disabled={busy}
              onClick={() => {
                setError(null);
                add.mutate({
                  id: order.id,
                  truckId: load.truckId,
                  driverId: load.driverId,
                  tonnes: Number(load.tonnes) || 20,
                });
              }}
            >
              Add assignment
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}
