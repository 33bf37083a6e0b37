import type { TListedOrder } from '../../../shared/schemas/orders';
import { useFormat } from '../../i18n/format';
import { Badge, paymentTone } from '../../ui/Badge';
import { Money } from '../../ui/Money';

/**
 * An order's money and payments: what was paid, what is still owed, any credit, and each payment with
 * its method, receipt, amount, time, payer's name as given and masked phone.
 */
export function PaymentList({ order }: { order: TListedOrder }) {
  const { t, dateTime, paymentStatus } = useFormat();
  const hasMoney = order.paid > 0 || order.credit > 0;
  if (order.payments.length === 0 && !hasMoney) return null;
  return (
    <div className="payment-list">
      {hasMoney ? (
        <p className="payment-list__sums">
          {t('payments.paid')} <Money value={order.paid} strong />
          {order.balance > 0 ? (
            <>
              {' '}
              · {t('payments.stillToPay')} <Money value={order.balance} strong />
            </>
          ) : null}
          {order.credit > 0 ? (
            <>
              {' '}
              · <Badge tone="warn">{t('payments.credit')}</Badge> <Money value={order.credit} strong />{' '}
              {t('payments.paidOver')}
            </>
          ) : null}
        </p>
      ) : null}
      <ul className="payments" aria-label={t('payments.list', { id: order.id })}>
        {order.payments.map((p) => (
          <li key={p.id} className="payment">
            <span className="payment__head">
              <strong>{p.method === 'MPESA' ? 'M-Pesa' : p.method}</strong>{' '}
              <span className="mono">{p.reference}</span>{' '}
              <Badge tone={paymentTone(p.status)}>
                {p.verified ? t('payments.received') : paymentStatus(p.status)}
              </Badge>
            </span>
            <span className="payment__facts">
              {p.amount !== null ? (
                <Money value={p.amount} />
              ) : (
                <span className="muted">{t('payments.noAmount')}</span>
              )}
              {p.paidAt
                ? ` · ${dateTime(p.paidAt, 'short')}`
                : ` · ${t('payments.sent', { when: dateTime(p.createdAt, 'short') })}`}
              {p.payerName ? ` · ${p.payerName}` : ''}
              {p.payerPhone ? ` · ${p.payerPhone}` : ''}
              {p.credit > 0 ? ` · ${t('payments.includesCredit')}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
