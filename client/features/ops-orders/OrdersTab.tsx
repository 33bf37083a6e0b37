import { useMemo, useState } from 'react';
import { formatDateTime, formatTonnes, orderStatusLabel } from '../../../shared/domain/format';
import type { TListedOrder } from '../../../shared/schemas/orders';
import { trpc } from '../../trpc';
import { Badge, orderTone, paymentTone } from '../../ui/Badge';
import { type Column, DataList } from '../../ui/DataList';
import { Alert } from '../../ui/forms';
import { Money } from '../../ui/Money';
import type { TabProps } from '../ops/tab-props';
import { PaymentList } from '../payment/PaymentList';
import { AssignSheet } from './AssignSheet';
import { beforePayment, LoadList } from './LoadList';
import { isActive, orderActions, tonnesOrdered, tonnesToSchedule } from './loads';
import { MpesaReconcile } from './MpesaReconcile';
import { NewOrderForm } from './NewOrderForm';
import { ActionButton, type OpenSheet, OrderCard, type SheetKind, sandLabel } from './OrderCard';
import { RecordPaymentSheet, ReviewPaymentSheet } from './PaymentSheets';

const FILTERS = [
  { id: 'all', label: 'All', assigned: undefined },
  { id: 'pending', label: 'Pending', assigned: false },
  { id: 'assigned', label: 'Assigned', assigned: true },
] as const;

/** The full table needs a laptop's width; below it every order is a card. */
const ORDERS_TABLE_FROM = 1100;

function columns(onOpen: OpenSheet): Column<TListedOrder>[] {
  return [
    {
      header: 'When',
      className: 'col-when',
      cell: (o) => (
        <>
          {formatDateTime(o.created_at, 'short')}
          <div className="muted">#{o.id}</div>
        </>
      ),
    },
    {
      header: 'Customer',
      className: 'col-customer',
      cell: (o) => (
        <>
          {o.name}
          {o.email ? <div className="muted">{o.email}</div> : null}
        </>
      ),
    },
    {
      header: 'Site',
      className: 'col-site',
      cell: (o) => (
        <>
          {o.site}
          {o.overnight_pour ? (
            <div>
              <Badge tone="warn">Overnight pour requested</Badge>
            </div>
          ) : null}
        </>
      ),
    },
    { header: 'Sand', className: 'col-sand', cell: (o) => sandLabel(o.sand_type) },
    {
      header: 'Trucks',
      numeric: true,
      className: 'col-trucks',
      cell: (o) => (
        <>
          {o.trucks}
          <div className="muted">{formatTonnes(tonnesOrdered(o))}</div>
        </>
      ),
    },
    { header: 'Total', numeric: true, className: 'col-total', cell: (o) => <Money value={o.total} /> },
    {
      header: 'Payment',
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
      header: 'Status',
      className: 'col-status',
      cell: (o) => (
        <div className="badges">
          <Badge tone={orderTone(o.status)}>{orderStatusLabel(o.status)}</Badge>
          {o.assignments.some(beforePayment) ? <Badge tone="warn">Scheduled before payment</Badge> : null}
        </div>
      ),
    },
    { header: 'Assignments', className: 'col-loads', cell: (o) => <LoadList order={o} /> },
    {
      header: 'Add assignment',
      className: 'col-add',
      cell: (o) => {
        if (o.status === 'DELIVERED' || o.status === 'CANCELLED')
          return <span className="muted">Closed</span>;
        const left = tonnesToSchedule(o);
        if (left <= 0) return <span className="muted">All {formatTonnes(tonnesOrdered(o))} on loads</span>;
        return (
          <>
            <ActionButton
              action="assign"
              order={o}
              primary={o.payment_status === 'CONFIRMED'}
              onOpen={onOpen}
            />
            <div className="to-schedule">{formatTonnes(left)} to schedule</div>
          </>
        );
      },
    },
  ];
}

/** Orders: a table on a laptop, a card per order on a phone; payment review and truck assignment in sheets. */
export function OrdersTab(_props: TabProps) {
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
  const cols = columns(open);

  return (
    <section aria-labelledby="orders-heading">
      <h2 id="orders-heading">Orders</h2>
      <NewOrderForm />
      <MpesaReconcile />
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
      {orders.isLoading ? <p className="muted">Loading orders…</p> : null}
      <DataList
        label="Orders"
        rows={orders.data ?? []}
        rowKey={(o) => o.id}
        columns={cols}
        tableFrom={ORDERS_TABLE_FROM}
        tableClassName="order-table"
        renderCard={(o) => <OrderCard order={o} onOpen={open} />}
        empty={orders.data ? 'No orders here.' : null}
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
