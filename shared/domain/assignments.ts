import { TRUCK_LOAD_TONNES } from '../constants';

export type AssignmentStatus = 'SCHEDULED' | 'IN_TRANSIT' | 'DELIVERED' | 'CANCELLED';
export type OrderStatus =
  | 'AWAITING_PAYMENT'
  | 'PAYMENT_REVIEW'
  | 'RECEIVED'
  | 'IN_TRANSIT'
  | 'DELIVERED'
  | 'CANCELLED';

const MOVES: Record<AssignmentStatus, AssignmentStatus[]> = {
  SCHEDULED: ['IN_TRANSIT', 'DELIVERED', 'CANCELLED'],
  IN_TRANSIT: ['DELIVERED', 'CANCELLED'],
  DELIVERED: [],
  CANCELLED: [],
};

/** Whether a load may move; drivers move their own loads forward but never cancel them. */
export function loadMove(
  from: AssignmentStatus,
  to: AssignmentStatus,
  actor: 'ops' | 'driver',
): 'ok' | 'same' | 'not-allowed' | 'driver-cannot-cancel' {
  if (from === to) return 'same';
  if (!MOVES[from].includes(to)) return 'not-allowed';
  if (actor === 'driver' && to === 'CANCELLED') return 'driver-cannot-cancel';
  return 'ok';
}

/**
 * The order's status once its loads change: delivered when enough loads are delivered for the trucks
 * ordered, in transit while any load is on the road or partly delivered, otherwise as it was.
 */
export function orderStatusForLoads(
  current: OrderStatus,
  trucksOrdered: number,
  loads: Array<{ status: AssignmentStatus }>,
): OrderStatus {
  if (current === 'CANCELLED') return current;
  const delivered = loads.filter((l) => l.status === 'DELIVERED').length;
  const moving = loads.some((l) => l.status === 'IN_TRANSIT');
  if (delivered >= trucksOrdered) return 'DELIVERED';
  if (moving || delivered > 0) return 'IN_TRANSIT';
  return current === 'IN_TRANSIT' || current === 'DELIVERED' ? 'RECEIVED' : current;
}

/** Revenue of one load: the order's per-truck price pro rata to the tonnes carried. */
export function loadRevenue(perTruck: number, tonnes: number): number {
  return Math.round(((perTruck * tonnes) / TRUCK_LOAD_TONNES) * 100) / 100;
}
