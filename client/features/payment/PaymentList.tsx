import { formatDateTime } from '../../../shared/domain/format';
import type { TListedOrder } from '../../../shared/schemas/orders';
import { Badge, paymentTone } from '../../ui/Badge';
import { Money } from '../../ui/Money';

/**
 * An order's money and payments: what was paid, what is still owed, any credit, and each payment with
 * its method, receipt, amount, time, payer's name as given and masked phone.
 */
export function PaymentList({ order }: { order: TListedOrder }) {
  const hasMoney = order.paid > 0 || order.credit > 0;
  if (order.payments.length === 0 && !hasMoney) return null;
  return (
    <div className="payment-list">
      {hasMoney ? (
        <p className="payment-list__sums">
          Paid <Money value={order.paid} strong />
          {order.balance > 0 ? (
            <>
              {' '}
              · still to pay <Money value={order.balance} strong />
            </>
          ) : null}
          {order.credit > 0 ? (
            <>
              {' '}
              · <Badge tone="warn">Credit</Badge> <Money value={order.credit} strong /> paid over the total
            </>
          ) : null}
        </p>
      ) : null}
      <ul className="payments" aria-label={`Payments of order #${order.id}`}>
        {order.payments.map((p) => (
          <li key={p.id} className="payment">
            <span className="payment__head">
              <strong>{p.method === 'MPESA' ? 'M-Pesa' : p.method}</strong>{' '}
              <span className="mono">{p.reference}</span>{' '}
              <Badge tone={paymentTone(p.status)}>{p.verified ? 'Received' : p.status}</Badge>
            </span>
            <span className="payment__facts">
              {p.amount !== null ? (
                <Money value={p.amount} />
              ) : (
                <span className="muted">amount not given</span>
              )}
              {p.paidAt
                ? ` · ${formatDateTime(p.paidAt, 'short')}`
                : ` · sent ${formatDateTime(p.createdAt, 'short')}`}
              {p.payerName ? ` · ${p.payerName}` : ''}
              {p.payerPhone ? ` · ${p.payerPhone}` : ''}
              {p.credit > 0 ? ' · includes a credit' : ''}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
