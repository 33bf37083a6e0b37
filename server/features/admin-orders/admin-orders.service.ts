import { timingSafeEqual } from 'node:crypto';
import type { DbOrTx } from '../../../drizzle/db';
import { raiseAlert } from '../../../drizzle/outbox';
import { TRUCK_LOAD_TONNES } from '../../../shared/constants';
import { type LoadMoveVerdict, loadMove, orderStatusForLoads } from '../../../shared/domain/assignments';
import { isExactSite, siteRadiusFor } from '../../../shared/domain/geofence';
import { LEGAL_WEIGHT_MESSAGES, legalWeight } from '../../../shared/domain/legal-weight';
import { localDate } from '../../../shared/domain/time';
import { instantOutsideWindow, loadOutsideWindow } from '../../../shared/domain/trip-profit';
import {
  ADMIN_ORDER_MESSAGES,
  DELIVERY_CODE_ATTEMPTS,
  type TAddAssignmentInput,
  type TAssignment,
  type TDeliveryProofInput,
} from '../../../shared/schemas/admin-orders';
import { FLEET_MESSAGES } from '../../../shared/schemas/fleet';
import { inDeliveryArea } from '../../../shared/schemas/tracking';
import type { Settings } from '../../../shared/settings';
import { requireTruck } from '../../common/trucks';
import type { CtxUser } from '../../context';
import { appError } from '../../errors';
import { storeImage, withUploads } from '../../uploads';
import { lockOrder, setSitePoint } from '../orders/orders.queries';
import { insertDeliveryStockTx, readYardStock } from '../stock/stock.queries';
import { grossLimitMap } from '../trucks/trucks.queries';
import {
  type AssignmentRow,
  clearWrongCodes,
  countWrongCode,
  driverExists,
  findAssignment,
  insertAssignment,
  insertLoadEvent,
  insertProof,
  latestPosition,
  listAssignments,
  loadStatuses,
  lockAssignment,
  orderOfAssignment,
  scheduledTonnes,
  setOrderStatus,
  updateAssignment,
} from './admin-orders.queries';

export async function orderLoads(
  db: DbOrTx,
  orderId: number,
  settings: Pick<Settings, 'trips'>,
): Promise<TAssignment[]> {
  return (await listAssignments(db, orderId)).map((l) => withWindow(l, settings));
}

/** Whether the load is scheduled, or moved, outside the transport hours (Africa/Nairobi). */
function withWindow(load: TAssignment, settings: Pick<Settings, 'trips'>): TAssignment {
  return { ...load, outsideWindow: loadOutsideWindow(load, settings.trips.window) };
}

const hundredths = (tonnes: number) => Math.round(tonnes * 100);

/**
 * Schedules a truck and driver for a load of an open order. Under the order's row lock (racing requests
 * queue up) the order's loads that are not cancelled stay within its trucks × 20 t and a load within its
 * truck's capacity, so revenue (per-truck price × tonnes / 20) never passes the order total. Left blank,
 * the tonnes are the truck's capacity or what remains on the order, whichever is less. An order whose
 * payment is not confirmed takes a load only when ADMIN confirms it (`confirmUnpaid`); the load records it.
 */
export async function addAssignment(
  db: DbOrTx,
  user: CtxUser,
  input: TAddAssignmentInput,
  settings: Pick<Settings, 'trips'>,
): Promise<TAssignment> {
  const id = await db.transaction(async (tx) => {
    const order = await lockOrder(tx, input.id);
    if (!order) throw appError('NOT_FOUND', ADMIN_ORDER_MESSAGES.orderNotFound);
    if (order.status === 'DELIVERED' || order.status === 'CANCELLED')
      throw appError('CONFLICT', ADMIN_ORDER_MESSAGES.orderClosed);
    const truck = await requireTruck(tx, input.truckId, FLEET_MESSAGES.unknownTruck);
    if (!(await driverExists(tx, input.driverId)))
      throw appError('BAD_REQUEST', FLEET_MESSAGES.unknownDriver);
    const remaining =
      (hundredths(order.trucks * TRUCK_LOAD_TONNES) - hundredths(await scheduledTonnes(tx, order.id))) / 100;
    const tonnes = input.tonnes ?? Math.min(truck.capacityT, Math.max(remaining, 0));
    if (hundredths(tonnes) > hundredths(truck.capacityT))
      throw appError('CONFLICT', ADMIN_ORDER_MESSAGES.overCapacity(truck.plate, truck.capacityT), {
        remainingTonnes: Math.max(remaining, 0),
      });
    if (tonnes <= 0 || hundredths(tonnes) > hundredths(remaining))
      throw appError(
        'CONFLICT',
        ADMIN_ORDER_MESSAGES.orderFull(Math.max(remaining, 0), order.trucks * TRUCK_LOAD_TONNES),
        { remainingTonnes: Math.max(remaining, 0) },
      );
    const legal = legalWeight(truck, tonnes, await grossLimitMap(tx));
    const override = input.overrideLegalLimit === true;
    if (!legal.legal && !override)
      throw appError(
        'CONFLICT',
        LEGAL_WEIGHT_MESSAGES.overLimit(
          truck.plate,
          truck.axles,
          legal.limitT,
          truck.tareT!,
          legal.legalPayloadT,
          legal.grossT,
        ),
        { overLegalLimit: true, limitT: legal.limitT, legalPayloadT: legal.legalPayloadT },
      );
    if (!legal.legal && user.role !== 'ADMIN') throw appError('FORBIDDEN', LEGAL_WEIGHT_MESSAGES.adminOnly);
    if (!legal.legal && !input.overrideReason)
      throw appError('BAD_REQUEST', LEGAL_WEIGHT_MESSAGES.reasonRequired);
    const unpaid = order.paymentStatus !== 'CONFIRMED';
    if (unpaid && !input.confirmUnpaid)
      throw appError('CONFLICT', ADMIN_ORDER_MESSAGES.unpaid, { unpaid: true });
    const loadId = await insertAssignment(tx, {
      orderId: order.id,
      truckId: truck.id,
      driverId: input.driverId,
      tonnes,
      scheduledAt: input.scheduledAt ?? null,
      createdById: user.id,
      scheduledBeforePayment: unpaid,
      // Recorded only when the override was needed: a legal load carries no override.
      overrideLegalLimit: !legal.legal,
      overrideReason: legal.legal ? null : input.overrideReason!,
    });
    // Scheduled outside the transport hours: flagged to operations (an overnight pour is on request).
    if (input.scheduledAt && instantOutsideWindow(input.scheduledAt, settings.trips.window))
      await raiseAlert(tx, { kind: 'load.outside_window', assignmentId: loadId });
    return loadId;
  });
  return withWindow((await findAssignment(db, id))!, settings);
}

type Status = AssignmentRow['status'];
type OrderRow = NonNullable<Awaited<ReturnType<typeof lockOrder>>>;

/** How fresh a truck's last fix must be to stand for where the driver is. */
const FRESH_POSITION_MS = 10 * 60_000;

/**
 * The load and its order, both locked: the order first, as every writer of a load does (the telemetry
 * worker's geofence moves lock orders, then their loads), so two writers never wait on each other in turn.
 */
async function lockLoad(
  tx: DbOrTx,
  id: number,
): Promise<{ load: AssignmentRow; order: OrderRow | undefined }> {
  const orderId = await orderOfAssignment(tx, id);
  const order = orderId === undefined ? undefined : await lockOrder(tx, orderId);
  const load = await lockAssignment(tx, id);
  if (!load) throw appError('NOT_FOUND', ADMIN_ORDER_MESSAGES.assignmentNotFound);
  return { load, order };
}

/** Ops, or the driver the load is assigned to; anyone else is refused. */
function actorFor(user: CtxUser, load: AssignmentRow): 'ops' | 'driver' {
  if (user.role !== 'DRIVER') return 'ops';
  if (!user.driverId || load.driverId !== user.driverId)
    throw appError('FORBIDDEN', ADMIN_ORDER_MESSAGES.notYourLoad);
  return 'driver';
}

/** Answers a refused move; true when there is nothing to do (already there). */
function refuse(verdict: LoadMoveVerdict, from: Status, to: Status): boolean {
  if (verdict === 'same') return true;
  if (verdict === 'driver-cannot-cancel')
    throw appError('FORBIDDEN', ADMIN_ORDER_MESSAGES.driverCannotCancel);
  if (verdict === 'only-forward') throw appError('FORBIDDEN', ADMIN_ORDER_MESSAGES.onlyForward);
  if (verdict === 'needs-proof') throw appError('CONFLICT', ADMIN_ORDER_MESSAGES.needsProof);
  if (verdict === 'not-allowed') throw appError('CONFLICT', ADMIN_ORDER_MESSAGES.badTransition(from, to));
  return false;
}

interface MoveRecord {
  source: 'manual' | 'proof';
  byUserId: number;
  reason: string | null;
}

/**
 * The move itself, under the locks: the load's times, its history row, the yard stock of a delivery
 * (once: the stock row is unique per load; under the low-stock threshold the once-a-day `stock.low` alert
 * commits with it) and the order's status, which follows its loads.
 */
async function applyMove(
  tx: DbOrTx,
  load: AssignmentRow,
  order: OrderRow | undefined,
  to: Status,
  now: Date,
  record: MoveRecord,
  alerts: Pick<Settings['alerts'], 'stockLowTonnes'>,
) {
  await updateAssignment(tx, load.id, {
    status: to,
    updatedAt: now,
    ...(to === 'IN_TRANSIT' ? { inTransitAt: now, arrivedAt: null } : {}),
    ...(to === 'ARRIVED' ? { arrivedAt: now, inTransitAt: load.inTransitAt ?? now } : {}),
    ...(to === 'DELIVERED'
      ? { deliveredAt: now, inTransitAt: load.inTransitAt ?? now, arrivedAt: load.arrivedAt ?? now }
      : {}),
    ...(to === 'CANCELLED' ? { cancelledAt: now } : {}),
  });
  await insertLoadEvent(tx, {
    assignmentId: load.id,
    fromStatus: load.status,
    toStatus: to,
    at: now,
    source: record.source,
    byUserId: record.byUserId,
    reason: record.reason,
  });
  if (!order) return;
  if (to === 'DELIVERED') {
    const tookStock = await insertDeliveryStockTx(tx, {
      trucks: -(load.tonnes / 20),
      tonnes: -load.tonnes,
      category: order.sandType,
      truckId: load.truckId,
      reason: `Delivered to order #${order.id} (${order.site})`,
      assignmentId: load.id,
      createdById: record.byUserId,
    });
    if (tookStock && (await readYardStock(tx)).tonnes < alerts.stockLowTonnes)
      await raiseAlert(tx, { kind: 'stock.low', day: localDate(now) });
  }
  const next = orderStatusForLoads(order.status, order.trucks, await loadStatuses(tx, order.id));
  if (next !== order.status) await setOrderStatus(tx, order.id, next, now);
}

/**
 * Where the driver is: the phone's own position when it sent one, else the truck's last fix if fresh.
 * Points outside the delivery area are no position.
 */
async function driverPosition(
  tx: DbOrTx,
  truckId: string,
  phone: { lat?: number | undefined; lng?: number | undefined },
  now: Date,
): Promise<{ lat: number; lng: number } | undefined> {
  if (phone.lat !== undefined && phone.lng !== undefined) {
    const p = { lat: phone.lat, lng: phone.lng };
    if (inDeliveryArea(p)) return p;
  }
  const latest = await latestPosition(tx, truckId);
  if (!latest || now.getTime() - latest.fixTime.getTime() > FRESH_POSITION_MS) return undefined;
  return inDeliveryArea(latest) ? { lat: latest.lat, lng: latest.lng } : undefined;
}

/**
 * The driver at the site: where nobody put the site's point (a pin, a shared location), the driver's
 * position there sets it, so the order's next loads arrive by themselves.
 */
async function siteFromDriver(
  tx: DbOrTx,
  order: OrderRow | undefined,
  position: { lat: number; lng: number } | undefined,
  settings: Pick<Settings, 'tracking'>,
  now: Date,
) {
  if (!order || !position || isExactSite(order.siteSource)) return;
  await setSitePoint(
    tx,
    order.id,
    { ...position, radiusM: siteRadiusFor('driver', settings.tracking.siteRadiusM), source: 'driver' },
    now,
  );
}

/**
 * Moves a load by hand (ops, or the driver it is assigned to), recording who and why; the order follows.
 * A driver delivers through `recordDelivery` (its proof); operations may mark a load delivered here, by
 * hand and without a proof (recorded with who, when and why; listed as delivered without proof). A driver marking a load arrived where the site
 * has no point of its own sets it from where the truck is.
 */
export async function moveLoad(
  db: DbOrTx,
  user: CtxUser,
  id: number,
  to: Status,
  now: Date,
  settings: Pick<Settings, 'alerts' | 'tracking' | 'trips'>,
  reason?: string,
): Promise<TAssignment> {
  const moved = await db.transaction(async (tx) => {
    const { load, order } = await lockLoad(tx, id);
    const actor = actorFor(user, load);
    if (refuse(loadMove(load.status, to, actor), load.status, to)) return load;
    await applyMove(
      tx,
      load,
      order,
      to,
      now,
      {
        source: 'manual',
        byUserId: user.id,
        reason: reason ?? (to === 'DELIVERED' ? ADMIN_ORDER_MESSAGES.deliveredByHand : null),
      },
      settings.alerts,
    );
    if (to === 'ARRIVED' && actor === 'driver')
      await siteFromDriver(tx, order, await driverPosition(tx, load.truckId, {}, now), settings, now);
    // On the road or at the site outside the transport hours: flagged to operations, never refused.
    if ((to === 'IN_TRANSIT' || to === 'ARRIVED') && instantOutsideWindow(now, settings.trips.window))
      await raiseAlert(tx, { kind: 'load.outside_window', assignmentId: load.id });
    return load;
  });
  return (await findAssignment(db, moved.id))!;
}

const sameCode = (given: string, code: string) =>
  given.length === code.length && timingSafeEqual(Buffer.from(given), Buffer.from(code));

type ProofOutcome = { kind: 'delivered' | 'same'; id: number } | { kind: 'wrong-code'; left: number };

/**
 * Proof of delivery: the photo (checked, re-encoded and stored first; removed again if the delivery is
 * refused) with the customer's 4-digit code, or, when the customer cannot give it, the receiver's name —
 * then the load is flagged for operations. A wrong code is counted on the order (the count commits even
 * though the delivery is refused); after DELIVERY_CODE_ATTEMPTS wrong codes only a receiver's name will
 * do. The same proof sent again (a phone's retry) answers the delivered load once.
 */
export async function recordDelivery(
  db: DbOrTx,
  settings: Pick<Settings, 'alerts' | 'tracking' | 'dataDir'>,
  user: CtxUser,
  input: TDeliveryProofInput,
  now: Date,
): Promise<TAssignment> {
  const photo = await storeImage(settings, input.photoData, 'delivery-photo');
  const outcome = await withUploads(settings, [photo], async () => {
    const result = await db.transaction(async (tx): Promise<ProofOutcome> => {
      const { load, order } = await lockLoad(tx, input.id);
      const actor = actorFor(user, load);
      if (refuse(loadMove(load.status, 'DELIVERED', actor, true), load.status, 'DELIVERED'))
        return { kind: 'same', id: load.id };
      let method: 'code' | 'receiver' = 'receiver';
      if (input.code !== undefined && order) {
        if (order.deliveryCodeFailures >= DELIVERY_CODE_ATTEMPTS)
          throw appError('TOO_MANY_REQUESTS', ADMIN_ORDER_MESSAGES.tooManyCodes, { attemptsLeft: 0 });
        if (!sameCode(input.code, order.deliveryCode)) {
          const failures = await countWrongCode(tx, order.id);
          return { kind: 'wrong-code', left: Math.max(0, DELIVERY_CODE_ATTEMPTS - failures) };
        }
        method = 'code';
        if (order.deliveryCodeFailures > 0) await clearWrongCodes(tx, order.id);
      }
      const flagged = method === 'receiver';
      const receiver = input.receiverName ?? null;
      await applyMove(
        tx,
        load,
        order,
        'DELIVERED',
        now,
        {
          source: 'proof',
          byUserId: user.id,
          reason: flagged
            ? `Received by ${receiver} without the delivery code`
            : receiver
              ? `Delivery code given; received by ${receiver}`
              : 'Delivery code given',
        },
        settings.alerts,
      );
      const position = await driverPosition(tx, load.truckId, input, now);
      await insertProof(tx, {
        assignmentId: load.id,
        photoPath: photo,
        method,
        receiverName: receiver,
        flagged,
        lat: position?.lat ?? null,
        lng: position?.lng ?? null,
        recordedById: user.id,
        recordedAt: now,
      });
      await siteFromDriver(tx, order, position, settings, now);
      return { kind: 'delivered', id: load.id };
    });
    if (result.kind === 'wrong-code')
      throw appError('BAD_REQUEST', ADMIN_ORDER_MESSAGES.wrongCode(result.left), {
        attemptsLeft: result.left,
      });
    // A replay of a delivery already recorded keeps the first proof's photo, not this one.
    return { result, replaced: result.kind === 'same' ? [photo] : [] };
  });
  return (await findAssignment(db, outcome.id))!;
}
