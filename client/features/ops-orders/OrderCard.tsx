import { formatDateTime, formatTonnes, orderStatusLabel } from '../../../shared/domain/format';
import type { TListedOrder } from '../../../shared/schemas/orders';
import { type StaffT, useStaffT } from '../../i18n/staff';
import { errorMessage } from '../../trpc';
import { Badge, orderTone, paymentTone } from '../../ui/Badge';
import { Money } from '../../ui/Money';
import { PaymentList } from '../payment/PaymentList';
import { beforePayment, LoadList, truckOf, useDeliver } from './LoadList';
import { isActive, type OrderAction, orderActions, tonnesOrdered, tonnesToSchedule } from './loads';

export type SheetKind = 'review' | 'record' | 'assign';
export type OpenSheet = (kind: SheetKind, order: TListedOrder) => void;

export const sandLabel = (t: StaffT, sand: string) =>
  sand === 'coarse' ? t('orders.coarse') : t('orders.smooth');

/** Payment, order status and the before-payment mark, as badges. */
export function OrderBadges({ order, withPayment = true }: { order: TListedOrder; withPayment?: boolean }) {
  const { t } = useStaffT();
  return (
    <div className="badges">
      {withPayment ? (
        <Badge tone={paymentTone(order.payment_status)}>
          {t('orders.paymentBadge', { status: order.payment_status })}
        </Badge>
      ) : null}
      <Badge tone={orderTone(order.status)}>{orderStatusLabel(order.status)}</Badge>
      {order.assignments.some(beforePayment) ? <Badge tone="warn">{t('orders.beforePayment')}</Badge> : null}
    </div>
  );
}

/** The button for one next step; the first step of an order is its main (filled) button. */
export function ActionButton({
  action,
  order,
  primary,
  onOpen,
}: {
  action: Exclude<OrderAction, 'deliver'>;
  order: TListedOrder;
  primary: boolean;
  onOpen: OpenSheet;
}) {
  const { t } = useStaffT();
  const className = primary ? 'button' : 'button button--secondary';
  const [kind, label]: [SheetKind, string] =
    action === 'review-payment'
      ? ['review', t('orders.reviewPayment')]
      : action === 'record-payment'
        ? ['record', t('orders.recordPayment')]
        : ['assign', t('orders.assignTruck')];
  return (
    <button type="button" className={className} onClick={() => onOpen(kind, order)}>
      {label}
    </button>
  );
}

/**
 * An order on a phone: where, who, what and how much, its badges and loads, and the next step as the
 * main button (Review payment, Assign truck in a sheet, Mark delivered).
 */
export function OrderCard({ order, onOpen }: { order: TListedOrder; onOpen: OpenSheet }) {
  const { t } = useStaffT();
  const deliver = useDeliver();
  const [main, ...more] = orderActions(order);
  const next = order.assignments.find(isActive);
  const left = tonnesToSchedule(order);
  const open = order.status !== 'DELIVERED' && order.status !== 'CANCELLED';
  return (
    <>
      <p className="order-site">{order.site}</p>
      {order.overnight_pour ? <Badge tone="warn">{t('orders.overnight')}</Badge> : null}
      <p className="order-meta">
        #{order.id} · {formatDateTime(order.created_at, 'short')} · {order.name}
      </p>
      <p className="order-meta">
        {sandLabel(t, order.sand_type)} · {t('orders.truckCount', { count: order.trucks })} (
        {formatTonnes(tonnesOrdered(order))}) · <Money value={order.total} strong />
      </p>
      <OrderBadges order={order} />
      <PaymentList order={order} />
      <LoadList order={order} leaveOut={main === 'deliver' ? next?.id : undefined} />
      {open && left > 0 ? (
        <p className="to-schedule">{t('orders.stillToSchedule', { tonnes: formatTonnes(left) })}</p>
      ) : null}
      {main ? (
        <div className="main-action">
          {main === 'deliver' && next ? (
            <button
              type="button"
              className="button"
              disabled={deliver.isPending}
              onClick={() => deliver.mutate({ id: next.id, status: 'DELIVERED' })}
            >
              {t('orders.markDeliveredTruck', { truck: truckOf(next) })}
            </button>
          ) : main !== 'deliver' ? (
            <ActionButton action={main} order={order} primary onOpen={onOpen} />
          ) : null}
          {more.map((a) =>
            a === 'deliver' ? null : (
              <ActionButton key={a} action={a} order={order} primary={false} onOpen={onOpen} />
            ),
          )}
        </div>
      ) : null}
      {deliver.error ? (
        <div role="alert" className="field__error">
          {errorMessage(deliver.error, t('orders.updateFailed'))}
        </div>
      ) : null}
    </>
  );
}
