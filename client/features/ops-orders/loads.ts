import { TRUCK_LOAD_TONNES } from '../../../shared/constants';
import { isClosedOrder, isOpenLoad, isPaymentDue } from '../../../shared/enums';
import type { TListedOrder } from '../../../shared/schemas/orders';

type OrderLoads = Pick<TListedOrder, 'trucks' | 'assignments'>;
type Load = TListedOrder['assignments'][number];

/** A load's truck as people say it: its plate, else its ID. */
export const truckOf = (load: Pick<Load, 'plate' | 'truck_id'>) => load.plate ?? load.truck_id;

/** Loads still to move (a dispatcher can mark them in transit, delivered or cancelled). */
export const isActive = (load: Pick<Load, 'status'>) => isOpenLoad(load.status);

/** What the order holds: trucks × 20 t. */
export const tonnesOrdered = (order: OrderLoads) => order.trucks * TRUCK_LOAD_TONNES;

/** Tonnes on loads that are not cancelled (scheduled, on the road or delivered). */
export function tonnesScheduled(order: OrderLoads): number {
  return order.assignments.filter((a) => a.status !== 'CANCELLED').reduce((sum, a) => sum + a.tonnes, 0);
}

/** The tonnes still to schedule: the server refuses a load beyond them (trucks × 20 − non-cancelled). */
export function tonnesToSchedule(order: OrderLoads): number {
  return Math.max(0, Math.round((tonnesOrdered(order) - tonnesScheduled(order)) * 100) / 100);
}

export type OrderAction = 'review-payment' | 'record-payment' | 'assign' | 'deliver';

/**
 * What a dispatcher can do next on an order, most likely first: the first is the card's main button.
 * A submitted payment waits for review; an unpaid order can have its payment recorded (paid by phone);
 * tonnes still to schedule take a truck (before payment only as ADMIN's confirmed override); a load on
 * its way can be marked delivered.
 */
export function orderActions(
  order: Pick<TListedOrder, 'status' | 'payment_status' | 'trucks' | 'assignments'>,
): OrderAction[] {
  if (isClosedOrder(order.status)) return [];
  const actions: OrderAction[] = [];
  if (order.payment_status === 'SUBMITTED') actions.push('review-payment');
  if (isPaymentDue(order.payment_status)) actions.push('record-payment');
  if (tonnesToSchedule(order) > 0) actions.push('assign');
  if (order.assignments.some(isActive)) actions.push('deliver');
  return actions;
}
