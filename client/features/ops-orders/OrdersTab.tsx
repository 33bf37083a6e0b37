import { useMemo, useState } from 'react';
import { formatTonnes } from '../../../shared/domain/format';
import { isClosedOrder } from '../../../shared/enums';
import type { TListedOrder } from '../../../shared/schemas/orders';
import { type Format, useFormat } from '../../i18n/format';
import { type StaffT, useStaffT } from '../../i18n/staff';
import { trpc } from '../../trpc';
import { Badge, orderTone, paymentTone } from '../../ui/Badge';
import { type Column, DataList } from '../../ui/DataList';
import { Alert } from '../../ui/forms';
import { Money } from '../../ui/Money';
import { PhoneLinks } from '../../ui/PhoneLinks';
import type { TabProps } from '../ops/tab-props';
import { PaymentList } from '../payment/PaymentList';
import { AssignSheet } from './AssignSheet';
import { beforePayment, LoadList } from './LoadList';
import { isActive, orderActions, tonnesOrdered, tonnesToSchedule } from './loads';
import { MpesaReconcile } from './MpesaReconcile';
import { NewOrderForm } from './NewOrderForm';
import { ActionButton, type OpenSheet, OrderCard, type SheetKind } from './OrderCard';
import { RecordPaymentSheet, ReviewPaymentSheet } from './PaymentSheets';
import { SitePin } from './SitePin';

const FILTERS = [
  { id: 'all', label: (t: StaffT) => t('orders.filterAll'), assigned: undefined },
  { id: 'pending', label: (t: StaffT) => t('orders.filterPending'), assigned: false },
  { id: 'assigned', label: (t: StaffT) => t('orders.filterAssigned'), assigned: true },
] as const;

/** The full table needs a laptop's width; below it every order is a card. */
const ORDERS_TABLE_FROM = 1100;

function columns(t: StaffT, f: Format, onOpen: OpenSheet): Column<TListedOrder>[] {
  return [
    {
      header: t('orders.when'),
      className: 'col-when',
      cell: (o) => (
        <>
          {f.dateTime(o.created_at, 'short')}
          <div className="muted">#{o.id}</div>
        </>
      ),
    },
    {
      header: t('orders.customer'),
      className: 'col-customer',
      cell: (o) => (
        <>
          {o.name}
          {o.email ? <div className="muted">{o.email}</div> : null}
          <PhoneLinks phone={o.phone} name={o.name} />
        </>
      ),
    },
    {
      header: t('orders.site'),
      className: 'col-site',
      cell: (o) => (
        <>
          {o.site}
          <SitePin order={o} />
          {o.overnight_pour ? (
            <div>
              <Badge tone="warn">{t('orders.overnight')}</Badge>
            </div>
          ) : null}
        </>
      ),
    },
    { header: t('orders.sand'), className: 'col-sand', cell: (o) => f.sandType(o.sand_type) },
    {
      header: t('orders.trucks'),
      numeric: true,
      className: 'col-trucks',
      cell: (o) => (
        <>
          {o.trucks}
          <div className="muted">{formatTonnes(tonnesOrdered(o))}</div>
        </>
      ),
    },
    {
      header: t('orders.total'),
      numeric: true,
      className: 'col-total',
      cell: (o) => <Money value={o.total} />,
    },
    {
      header: t('orders.payment'),
      className: 'col-payment',
      cell: (o) => {
        const action = orderActions(o).find((a) => a === 'review-payment' || a === 'record-payment');
        return (
          <>
            <div className="row-actions">
              <Badge tone={paymentTone(o.payment_status)}>{o.payment_status}</Badge>
              {action ? (
                <ActionButton
                  action={action}
                  order={o}
                  primary={action === 'review-payment'}
                  onOpen={onOpen}
                />
              ) : null}
            </div>
            <PaymentList order={o} />
          </>
        );
      },
    },
    {
      header: t('orders.status'),
      className: 'col-status',
      cell: (o) => (
        <div className="badges">
          <Badge tone={orderTone(o.status)}>{f.orderStatus(o.status)}</Badge>
          {o.assignments.some(beforePayment) ? <Badge tone="warn">{t('orders.beforePayment')}</Badge> : null}
        </div>
      ),
    },
    { header: t('orders.assignments'), className: 'col-loads', cell: (o) => <LoadList order={o} /> },
    {
      header: t('orders.addAssignment'),
      className: 'col-add',
      cell: (o) => {
        if (isClosedOrder(o.status)) return <span className="muted">{t('orders.closed')}</span>;
        const left = tonnesToSchedule(o);
        if (left <= 0)
          return (
            <span className="muted">
              {t('orders.allOnLoads', { tonnes: formatTonnes(tonnesOrdered(o)) })}
            </span>
          );
        return (
          <>
            <ActionButton
              action="assign"
              order={o}
              primary={o.payment_status === 'CONFIRMED'}
              onOpen={onOpen}
            />
            <div className="to-schedule">{t('orders.toSchedule', { tonnes: formatTonnes(left) })}</div>
          </>
        );
      },
    },
  ];
}

/** Orders: a table on a laptop, a card per order on a phone; payment review and truck assignment in sheets. */
export function OrdersTab(_props: TabProps) {
  const { t } = useStaffT();
  const format = useFormat();
  const [filter, setFilter] = useState<(typeof FILTERS)[number]['id']>('all');
  const assigned = FILTERS.find((f) => f.id === filter)?.assigned;
  const orders = trpc.admin.orders.list.useQuery(assigned === undefined ? undefined : { assigned });
  const trucks = trpc.admin.trucks.list.useQuery();
  const drivers = trpc.admin.drivers.list.useQuery();
  const [sheet, setSheet] = useState<{ kind: SheetKind; orderId: number } | null>(null);
  const open: OpenSheet = (kind, order) => setSheet({ kind, orderId: order.id });
  const close = () => setSheet(null);
  // The sheet follows the order as the list refreshes (tonnes left change as loads are added).
  const sheetOrder = sheet ? orders.data?.find((o) => o.id === sheet.orderId) : undefined;
  const busyTrucks = useMemo(
    () => new Set((orders.data ?? []).flatMap((o) => o.assignments.filter(isActive).map((a) => a.truck_id))),
    [orders.data],
  );
  const cols = columns(t, format, open);

  return (
    <section aria-labelledby="orders-heading">
      <h2 id="orders-heading">{t('tabs.orders')}</h2>
      <NewOrderForm />
      <MpesaReconcile />
      <fieldset className="filter-buttons">
        <legend className="visually-hidden">{t('orders.filterLegend')}</legend>
        {FILTERS.map((f) => (
          <button
            key={f.id}
            type="button"
            className="button button--small button--secondary"
            aria-pressed={filter === f.id}
            onClick={() => setFilter(f.id)}
          >
            {f.label(t)}
          </button>
        ))}
      </fieldset>
      {orders.error ? <Alert>{t('orders.failed')}</Alert> : null}
      {orders.isLoading ? <p className="muted">{t('orders.loading')}</p> : null}
      <DataList
        label={t('tabs.orders')}
        rows={orders.data ?? []}
        rowKey={(o) => o.id}
        columns={cols}
        tableFrom={ORDERS_TABLE_FROM}
        tableClassName="order-table"
        renderCard={(o) => <OrderCard order={o} onOpen={open} />}
        empty={orders.data ? t('orders.none') : null}
      />
      {sheet && sheetOrder ? (
        sheet.kind === 'assign' ? (
          <AssignSheet
            order={sheetOrder}
            trucks={trucks.data ?? []}
            drivers={drivers.data ?? []}
            busyTrucks={busyTrucks}
            onClose={close}
          />
        ) : sheet.kind === 'review' ? (
          <ReviewPaymentSheet order={sheetOrder} onClose={close} />
        ) : (
          <RecordPaymentSheet order={sheetOrder} onClose={close} />
        )
      ) : null}
    </section>
  );
}
