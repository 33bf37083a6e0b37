import { formatTonnes } from '../../../shared/domain/format';
import { isClosedOrder } from '../../../shared/enums';
import type { TListedOrder } from '../../../shared/schemas/orders';
import { useFormat } from '../../i18n/format';
import { useStaffT } from '../../i18n/staff';
import { Badge, orderTone, paymentTone } from '../../ui/Badge';
import { Money } from '../../ui/Money';
import { PhoneLinks } from '../../ui/PhoneLinks';
import { PaymentList } from '../payment/PaymentList';
import { useDeliverSheet } from './DeliverSheet';
import { beforePayment, LoadList } from './LoadList';
import { isActive, type OrderAction, orderActions, tonnesOrdered, tonnesToSchedule, truckOf } from './loads';
import { OrderConversation } from './OrderConversation';
import { SitePin } from './SitePin';

export type SheetKind = 'review' | 'record' | 'assign';
export type OpenSheet = (kind: SheetKind, order: TListedOrder) => void;

/** Payment, order status and the before-payment mark, as badges. */
export function OrderBadges({ order, withPayment = true }: { order: TListedOrder; withPayment?: boolean }) {
  const { t } = useStaffT();
  const { orderStatus, paymentStatus } = useFormat();
  return (
    <div className="badges">
      {withPayment ? (
        <Badge tone={paymentTone(order.payment_status)}>
          {t('orders.paymentBadge', { status: paymentStatus(order.payment_status) })}
        </Badge>
      ) : null}
      <Badge tone={orderTone(order.status)}>{orderStatus(order.status)}</Badge>
      {order.assignments.some(beforePayment) ? <Badge tone="warn">{t('orders.beforePayment')}</Badge> : null}
    </div>
  );
}

/** An order's receipt and credit notes (PDFs) and where its sale stands with KRA eTIMS. */
export function OrderDocuments({ order }: { order: TListedOrder }) {
  const { t } = useStaffT();
  if (!order.receiptUrl && order.creditNotes.length === 0) return null;
  const status: Record<string, string> = {
    off: t('invoices.statusOff'),
    pending: t('invoices.statusPending'),
    sent: t('invoices.statusSent'),
    signed: t('invoices.statusSigned'),
    failed: t('invoices.statusFailed'),
  };
  return (
    <p className="order-meta order-documents">
      {order.receiptUrl ? (
        <a href={order.receiptUrl} download>
          {t('orders.receipt')}
        </a>
      ) : null}
      {order.etimsStatus ? (
        <>
          {' · '}
          <Badge
            tone={
              order.etimsStatus === 'signed' ? 'good' : order.etimsStatus === 'failed' ? 'bad' : 'neutral'
            }
          >
            {t('orders.etims', { status: status[order.etimsStatus] ?? order.etimsStatus })}
          </Badge>
        </>
      ) : null}
      {order.creditNotes.map((c) => (
        <span key={c.label}>
          {' · '}
          <a href={c.url} download>
            {c.label}
          </a>
        </span>
      ))}
    </p>
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
 * main button (Review payment, Assign truck in a sheet, Mark delivered: the proof of delivery in a sheet).
 */
export function OrderCard({ order, onOpen }: { order: TListedOrder; onOpen: OpenSheet }) {
  const { t } = useStaffT();
  const { sandType, dateTime } = useFormat();
  const delivery = useDeliverSheet(order);
  const [main, ...more] = orderActions(order);
  const next = order.assignments.find(isActive);
  const left = tonnesToSchedule(order);
  const open = !isClosedOrder(order.status);
  return (
    <>
      <p className="order-site">{order.site}</p>
      <SitePin order={order} />
      {order.overnight_pour ? <Badge tone="warn">{t('orders.overnight')}</Badge> : null}
      <p className="order-meta">
        #{order.id} · {dateTime(order.created_at, 'short')} · {order.name}
      </p>
      <PhoneLinks phone={order.phone} name={order.name} />
      <p className="order-meta">
        {sandType(order.sand_type)} · {t('orders.truckCount', { count: order.trucks })} (
        {formatTonnes(tonnesOrdered(order))}) · <Money value={order.total} strong />
      </p>
      <OrderBadges order={order} />
      <PaymentList order={order} />
      <OrderDocuments order={order} />
      <LoadList order={order} leaveOut={main === 'deliver' ? next?.id : undefined} />
      {open && left > 0 ? (
        <p className="to-schedule">{t('orders.stillToSchedule', { tonnes: formatTonnes(left) })}</p>
      ) : null}
      {main ? (
        <div className="main-action">
          {main === 'deliver' && next ? (
            <button type="button" className="button" onClick={() => delivery.deliver(next)}>
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
      {delivery.sheet}
      <OrderConversation orderId={order.id} />
    </>
  );
}
