import { TRUCK_LOAD_TONNES } from '../constants';
import { type AssignmentStatus, isLoadOut, isOpenLoad, type OrderStatus } from '../enums';

const MOVES: Record<AssignmentStatus, AssignmentStatus[]> = {
  SCHEDULED: ['IN_TRANSIT', 'ARRIVED', 'DELIVERED', 'CANCELLED'],
  IN_TRANSIT: ['ARRIVED', 'DELIVERED', 'CANCELLED'],
  // Back on the road: operations undoing an arrival at the wrong place.
  ARRIVED: ['IN_TRANSIT', 'DELIVERED', 'CANCELLED'],
  DELIVERED: [],
  CANCELLED: [],
};

const RANK: Record<AssignmentStatus, number> = {
  SCHEDULED: 0,
  IN_TRANSIT: 1,
  ARRIVED: 2,
  DELIVERED: 3,
  CANCELLED: 4,
};

export type LoadMoveVerdict =
  | 'ok'
  | 'same'
  | 'not-allowed'
  | 'driver-cannot-cancel'
  | 'needs-proof'
  | 'only-forward';

/**
 * Whether a load may move. Geofences move loads forward to IN_TRANSIT and ARRIVED; drivers move their own
 * loads forward but never cancel them; only operations moves one back. A driver delivers with a proof of
 * delivery (`proof`); operations may also mark a load delivered by hand without one (the load is then
 * shown as delivered without proof).
 */
export function loadMove(
  from: AssignmentStatus,
  to: AssignmentStatus,
  actor: 'ops' | 'driver' | 'geofence',
  proof = false,
): LoadMoveVerdict {
  if (from === to) return 'same';
  if (!MOVES[from].includes(to)) return 'not-allowed';
  if (to === 'DELIVERED' && !proof && actor !== 'ops') return 'needs-proof';
  if (actor !== 'ops' && to === 'CANCELLED')
    return actor === 'driver' ? 'driver-cannot-cancel' : 'not-allowed';
  if (actor !== 'ops' && RANK[to] < RANK[from]) return 'only-forward';
  if (actor === 'geofence' && to === 'DELIVERED') return 'not-allowed';
  return 'ok';
}

/**
 * The order's status once its loads change. Delivered when the tonnes delivered reach the tonnes
 * ordered (trucks × 20 t, however many loads carried them), or when a load per truck ordered is
 * delivered and no other load is still open (sand is sold by the truck: a 19 t truck delivers a truck);
 * in transit while any load is on the road or at the site, or the order is partly delivered; otherwise
 * as it was.
 */
export function orderStatusForLoads(
  current: OrderStatus,
  trucksOrdered: number,
  loads: Array<{ status: AssignmentStatus; tonnes: number }>,
): OrderStatus {
  if (current === 'CANCELLED') return current;
  const deliveredLoads = loads.filter((l) => l.status === 'DELIVERED');
  // Tonnes are numeric(8,2): compare in hundredths so 6.67 + 6.67 + 6.66 makes exactly 20.
  const deliveredCentitonnes = deliveredLoads.reduce((sum, l) => sum + Math.round(l.tonnes * 100), 0);
  const open = loads.some((l) => isOpenLoad(l.status));
  // A load at the site is still on its way to being delivered: the order is in transit.
  const moving = loads.some((l) => isLoadOut(l.status));
  if (deliveredCentitonnes >= trucksOrdered * TRUCK_LOAD_TONNES * 100) return 'DELIVERED';
  if (deliveredLoads.length >= trucksOrdered && !open) return 'DELIVERED';
  const delivered = deliveredLoads.length;
  if (moving || delivered > 0) return 'IN_TRANSIT';
  return current === 'IN_TRANSIT' || current === 'DELIVERED' ? 'RECEIVED' : current;
}
