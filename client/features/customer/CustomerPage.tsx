import { Link } from 'react-router';
import { formatKes, formatKm, orderStatusLabel } from '../../../shared/domain/format';
import { distanceSourceLabel } from '../../../shared/domain/pricing';
import { trpc } from '../../trpc';
import { Alert } from '../../ui/forms';
import { Page } from '../../ui/Page';

const dateTime = new Intl.DateTimeFormat('en-KE', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'Africa/Nairobi',
});

/** /customer: My Orders, with every field of the spec's listed order. */
export function CustomerPage() {
  const orders = trpc.orders.my.useQuery();

  return (
    <Page title="My Orders">
      {orders.isLoading ? <p className="muted">Loading your orders…</p> : null}
      {orders.error ? <Alert>Failed to load orders. Please refresh.</Alert> : null}
      {orders.data && orders.data.length === 0 ? (
        <div className="card">
          <p>You have no orders yet.</p>
          <Link to="/order" className="button">
            Place your first order
          </Link>
        </div>
      ) : null}
      <div className="order-list">
        {orders.data?.map((o) => (
          <article key={o.id} className="card order-card" aria-labelledby={`order-${o.id}`}>
            <h2 id={`order-${o.id}`}>
              Order #{o.id} <span className="status-pill">{orderStatusLabel(o.status)}</span>
            </h2>
            <dl>
              <dt>Placed</dt>
              <dd>{dateTime.format(new Date(o.created_at))}</dd>
              <dt>Site</dt>
              <dd>{o.site}</dd>
              <dt>Payment</dt>
              <dd>{o.payment_status || 'PENDING'}</dd>
              <dt>Sand</dt>
              <dd>{o.sand_type === 'coarse' ? 'Coarse' : 'Smooth'}</dd>
              <dt>Trucks</dt>
              <dd>{o.trucks}</dd>
              <dt>Per truck</dt>
              <dd>{formatKes(o.per_truck)}</dd>
              <dt>Total</dt>
              <dd>
                <strong>{formatKes(o.total)}</strong>
              </dd>
              <dt>Distance</dt>
              <dd>
                {formatKm(o.distance_km)} ({distanceSourceLabel(o.distance_source)})
              </dd>
            </dl>
            <h3>Assignments</h3>
            {o.assignments.length === 0 ? (
              <p className="muted">
                No trucks scheduled yet. Operations schedules trucks once your payment is confirmed.
              </p>
            ) : (
              <ul>
                {o.assignments.map((a) => (
                  <li key={a.id}>
                    {a.plate ?? a.truck_id} · {a.tonnes} t · {a.status}
                    {a.scheduledAt ? ` · ${dateTime.format(new Date(a.scheduledAt))}` : ''}
                    {a.driver ? ` · driver ${a.driver}` : ''}
                  </li>
                ))}
              </ul>
            )}
          </article>
        ))}
      </div>
    </Page>
  );
}
