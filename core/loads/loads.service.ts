import { timingSafeEqual } from 'node:crypto';
import type { DbOrTx } from '../../drizzle/db';
import { raiseAlert, writeOutbox } from '../../drizzle/outbox';
import { TRUCK_LOAD_TONNES } from '../../shared/constants';
import { type LoadMoveVerdict, loadMove, orderStatusForLoads } from '../../shared/domain/assignments';
import { siteRadiusFor } from '../../shared/domain/geofence';
import { LEGAL_WEIGHT_MESSAGES, legalWeight } from '../../shared/domain/legal-weight';
import { localDate } from '../../shared/domain/time';
import { instantOutsideWindow, loadOutsideWindow } from '../../shared/domain/trip-profit';
import { isClosedOrder, isLoadOut } from '../../shared/enums';
import type { CustomerNewsEvent } from '../../shared/jobs';
import {
  ADMIN_ORDER_MESSAGES,
  DELIVERY_CODE_ATTEMPTS,
  type TAddAssignmentInput,
  type TAssignment,
  type TDeliveryProofInput,
} from '../../shared/schemas/admin-orders';
import { FLEET_MESSAGES } from '../../shared/schemas/fleet';
import { inDeliveryArea } from '../../shared/schemas/tracking';
import type { Settings } from '../../shared/settings';
import type { CtxUser } from '../access/actor';
import { loadActor } from '../access/rules';
import { creditForLoad, invoiceDeliveredLoad } from '../accounts/accounts.service';
import { nothingChanged, recordChange } from '../activity/activity';
import { requireTruck } from '../common/trucks';
import { appError } from '../errors';
import { lockOrder, setDriverSitePoint } from '../orders/orders.queries';
import { insertDeliveryStockTx, readYardStock } from '../stock/stock.queries';
import { grossLimitMap } from '../trucks/trucks.queries';
import { storeImage, uploadStore, withUploads } from '../uploads/uploads.service';
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
  lockOrdersAndLoads,
  type OrderRow,
  ordersOfLoads,
  scheduledTonnes,
  setOrderOnTerms,
  setOrderStatus,
  updateAssignment,
} from './loads.queries';

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

/** One load as every answer shows it: with its history and its transport-window flag. */
async function readLoad(db: DbOrTx, id: number, settings: Pick<Settings, 'trips'>): Promise<TAssignment> {
  return withWindow((await findAssignment(db, id))!, settings);
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
  now: Date,
): Promise<TAssignment> {
  const id = await db.transaction(async (tx) => {
    const order = await lockOrder(tx, input.id);
    if (!order) throw appError('NOT_FOUND', ADMIN_ORDER_MESSAGES.orderNotFound);
    if (isClosedOrder(order.status)) throw appError('CONFLICT', ADMIN_ORDER_MESSAGES.orderClosed);
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
    if (!legal.legal && !input.overrideReason)
      throw appError('BAD_REQUEST', LEGAL_WEIGHT_MESSAGES.reasonRequired);
    // A customer's account on terms: scheduled on its credit, within the limit (or ADMIN's override).
    const credit = await creditForLoad(tx, order, tonnes, input, now);
    const unpaid = order.paymentStatus !== 'CONFIRMED' && !credit;
    if (unpaid && !input.confirmUnpaid)
      throw appError('CONFLICT', ADMIN_ORDER_MESSAGES.unpaid, { unpaid: true });
    if (credit && !order.onTerms) await setOrderOnTerms(tx, order.id, now);
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
      overrideCreditLimit: credit?.overridden ?? false,
      creditOverrideReason: credit?.overridden ? input.overrideReason! : null,
    });
    // Scheduled outside the transport hours: flagged to operations (an overnight pour is on request).
    if (input.scheduledAt && instantOutsideWindow(input.scheduledAt, settings.trips.window))
      await raiseAlert(tx, { kind: 'load.outside_window', assignmentId: loadId });
    await recordChange(tx, {
      entity: 'load',
      entityId: loadId,
      after: {
        orderId: order.id,
        truckId: truck.id,
        driverId: input.driverId,
        tonnes,
        scheduledAt: input.scheduledAt ?? null,
        status: 'SCHEDULED',
        scheduledBeforePayment: unpaid,
        overrideReason: legal.legal ? null : input.overrideReason!,
      },
    });
    await writeOutbox(tx, 'customer.notify', { event: 'load.scheduled', orderId: order.id, loadId });
    return loadId;
  });
  return readLoad(db, id, settings);
}

type Status = AssignmentRow['status'];

/** What the customer is told when a load moves (once each: the notice is keyed by load and event). */
const CUSTOMER_NEWS_OF: Partial<Record<Status, CustomerNewsEvent>> = {
  IN_TRANSIT: 'load.left_yard',
  ARRIVED: 'load.arrived',
  DELIVERED: 'load.delivered',
};

/** How fresh a truck's last fix must be to stand for where the driver is. */
const FRESH_POSITION_MS = 10 * 60_000;

/** A load and its order, locked for moving; `applyLoadMove` keeps both rows up to date as it writes. */
export interface LockedLoad {
  load: AssignmentRow;
  order: OrderRow | undefined;
}

/**
 * The loads and their orders, locked: the orders first, then the loads, each in id order, as every writer
 * of a load takes them (ops, drivers and the geofence step alike), so two writers never wait on each other
 * in turn. Loads that do not exist are missing from the answer.
 */
export async function lockLoads(tx: DbOrTx, ids: readonly number[]): Promise<Map<number, LockedLoad>> {
  const locked = await lockOrdersAndLoads(tx, await ordersOfLoads(tx, ids), ids);
  return new Map(
    locked.loads.map((load) => [load.id, { load, order: locked.orders.find((o) => o.id === load.orderId) }]),
  );
}

async function lockLoad(tx: DbOrTx, id: number): Promise<LockedLoad> {
  const locked = (await lockLoads(tx, [id])).get(id);
  if (!locked) throw appError('NOT_FOUND', ADMIN_ORDER_MESSAGES.assignmentNotFound);
  return locked;
}

/** Ops, or the driver the load is assigned to (core/access); anyone else is refused. */
function actorFor(user: CtxUser, load: AssignmentRow): 'ops' | 'driver' {
  const actor = loadActor(user, load);
  if (!actor) throw appError('FORBIDDEN', ADMIN_ORDER_MESSAGES.notYourLoad);
  return actor;
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

/** One move of one load: where to, who makes it and why. */
export interface LoadMove {
  to: Status;
  /** Operations (ADMIN, OPS), the load's own driver, or the geofence step. */
  actor: 'ops' | 'driver' | 'geofence';
  /** A delivery with its proof (photo and code or receiver). */
  proof?: boolean;
  /** When it happened: now for a move by hand or a proof, the crossing's time for the geofence. */
  at: Date;
  /** How it is recorded in the load's history. */
  source: 'manual' | 'proof' | 'geofence';
  byUserId: number | null;
  reason: string | null;
  /** The crossing that made a geofence move. */
  geofenceEventId?: number;
}

const asIso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * The one way a load moves, whoever moves it (ops or the driver by hand, the driver with a proof, the
 * geofence by its crossings), under the locks of `lockLoads`. The move is checked first (`loadMove`: the
 * answer is its verdict, and nothing is written unless it is 'ok'); then, in the caller's transaction:
 * the load's times, its history row (who, or which crossing, and why), `load.outside_window` the first
 * time the load is on the road or at the site outside the transport hours (flagged, never refused), the
 * yard stock of a delivery (once: the stock row is unique per load; under the low-stock threshold the
 * once-a-day `stock.low` alert commits with it) and the order's status, which follows its loads.
 */
export async function applyLoadMove(
  tx: DbOrTx,
  locked: LockedLoad,
  move: LoadMove,
  now: Date,
  settings: { alerts: Pick<Settings['alerts'], 'stockLowTonnes'>; trips: Pick<Settings['trips'], 'window'> },
): Promise<LoadMoveVerdict> {
  const { load: before, order } = locked;
  const { to, at } = move;
  const verdict = loadMove(before.status, to, move.actor, move.proof ?? false);
  if (verdict !== 'ok') return verdict;
  locked.load = await updateAssignment(tx, before.id, {
    status: to,
    updatedAt: now,
    ...(to === 'IN_TRANSIT' ? { inTransitAt: at, arrivedAt: null } : {}),
    ...(to === 'ARRIVED' ? { arrivedAt: at, inTransitAt: before.inTransitAt ?? at } : {}),
    ...(to === 'DELIVERED'
      ? { deliveredAt: at, inTransitAt: before.inTransitAt ?? at, arrivedAt: before.arrivedAt ?? at }
      : {}),
    ...(to === 'CANCELLED' ? { cancelledAt: at } : {}),
  });
  await insertLoadEvent(tx, {
    assignmentId: before.id,
    fromStatus: before.status,
    toStatus: to,
    at,
    source: move.source,
    byUserId: move.byUserId,
    reason: move.reason,
    geofenceEventId: move.geofenceEventId ?? null,
  });
  const window = settings.trips.window;
  const flaggedBefore = loadOutsideWindow(
    {
      scheduledAt: asIso(before.scheduledAt),
      inTransitAt: asIso(before.inTransitAt),
      arrivedAt: asIso(before.arrivedAt),
    },
    window,
  );
  if (isLoadOut(to) && instantOutsideWindow(at, window) && !flaggedBefore)
    await raiseAlert(tx, { kind: 'load.outside_window', assignmentId: before.id });
  if (!order) return verdict;
  if (to === 'DELIVERED' && order.onTerms)
    // An order on account terms: the delivered load is the sale (its tax invoice, owed on terms).
    await invoiceDeliveredLoad(tx, order, { id: before.id, tonnes: before.tonnes }, at, now);
  const news = CUSTOMER_NEWS_OF[to];
  if (news) await writeOutbox(tx, 'customer.notify', { event: news, orderId: order.id, loadId: before.id });
  if (to === 'DELIVERED') {
    const tookStock = await insertDeliveryStockTx(tx, {
      trucks: -(before.tonnes / TRUCK_LOAD_TONNES),
      tonnes: -before.tonnes,
      category: order.sandType,
      truckId: before.truckId,
      reason: `Delivered to order #${order.id} (${order.site})`,
      assignmentId: before.id,
      createdById: move.byUserId,
    });
    if (tookStock && (await readYardStock(tx)).tonnes < settings.alerts.stockLowTonnes)
      await raiseAlert(tx, { kind: 'stock.low', day: localDate(at) });
  }
  const next = orderStatusForLoads(order.status, order.trucks, await loadStatuses(tx, order.id));
  if (next !== order.status) {
    await setOrderStatus(tx, order.id, next, now);
    order.status = next;
  }
  return verdict;
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
 * The driver at the site: where nobody put the site's point exactly (a pin, a shared location), the
 * driver's position there sets it (over a geocoded or gazetteer point), so the order's next loads arrive
 * by themselves. The one rule for a hand arrival, a proof of delivery and the geofence's first stop.
 */
export async function siteFromDriver(
  tx: DbOrTx,
  orderId: number | undefined,
  position: { lat: number; lng: number } | undefined,
  settings: Pick<Settings, 'tracking'>,
  now: Date,
) {
  if (orderId === undefined || !position) return;
  await setDriverSitePoint(
    tx,
    orderId,
    { ...position, radiusM: siteRadiusFor('driver', settings.tracking.siteRadiusM) },
    now,
  );
}

/**
 * Moves a load by hand (ops, or the driver it is assigned to), recording who and why; the order follows.
 * A driver delivers through `recordDelivery` (its proof); operations may mark a load delivered here, by
 * hand and without a proof, giving the reason (recorded with who, when and why; listed as delivered without
 * proof). A driver marking a load arrived where the site
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
  await db.transaction(async (tx) => {
    const locked = await lockLoad(tx, id);
    const from = locked.load.status;
    const actor = actorFor(user, locked.load);
    // Delivered by hand skips the proof, so whoever does it says why (a replay of a done move needs none).
    if (to === 'DELIVERED' && actor === 'ops' && from !== 'DELIVERED' && !reason)
      throw appError('BAD_REQUEST', ADMIN_ORDER_MESSAGES.handDeliveryReason);
    const verdict = await applyLoadMove(
      tx,
      locked,
      {
        to,
        actor,
        at: now,
        source: 'manual',
        byUserId: user.id,
        reason: reason ?? null,
      },
      now,
      settings,
    );
    if (verdict !== 'ok') {
      refuse(verdict, from, to);
      nothingChanged();
      return;
    }
    await recordChange(tx, {
      entity: 'load',
      entityId: id,
      before: { status: from },
      after: { status: to, reason: reason ?? null },
    });
    if (to === 'ARRIVED' && actor === 'driver')
      await siteFromDriver(
        tx,
        locked.order?.id,
        await driverPosition(tx, locked.load.truckId, {}, now),
        settings,
        now,
      );
  });
  return readLoad(db, id, settings);
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
  settings: Pick<Settings, 'alerts' | 'tracking' | 'trips' | 'dataDir' | 'uploadStorage'>,
  user: CtxUser,
  input: TDeliveryProofInput,
  now: Date,
): Promise<TAssignment> {
  const store = uploadStore(db, settings);
  const photo = await storeImage(store, input.photoData, 'delivery-photo');
  const outcome = await withUploads(store, [photo], async () => {
    const result = await db.transaction(async (tx): Promise<ProofOutcome> => {
      const locked = await lockLoad(tx, input.id);
      const { load, order } = locked;
      const actor = actorFor(user, load);
      if (refuse(loadMove(load.status, 'DELIVERED', actor, true), load.status, 'DELIVERED')) {
        nothingChanged();
        return { kind: 'same', id: load.id };
      }
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
      await applyLoadMove(
        tx,
        locked,
        {
          to: 'DELIVERED',
          actor,
          proof: true,
          at: now,
          source: 'proof',
          byUserId: user.id,
          reason: flagged
            ? `Received by ${receiver} without the delivery code`
            : receiver
              ? `Delivery code given; received by ${receiver}`
              : 'Delivery code given',
        },
        now,
        settings,
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
      await siteFromDriver(tx, order?.id, position, settings, now);
      await recordChange(tx, {
        entity: 'load',
        entityId: load.id,
        before: { status: load.status },
        after: { status: 'DELIVERED', proof: method, receiverName: receiver, flagged, photo },
      });
      return { kind: 'delivered', id: load.id };
    });
    if (result.kind === 'wrong-code')
      throw appError('BAD_REQUEST', ADMIN_ORDER_MESSAGES.wrongCode(result.left), {
        attemptsLeft: result.left,
      });
    // A replay of a delivery already recorded keeps the first proof's photo, not this one.
    return { result, replaced: result.kind === 'same' ? [photo] : [] };
  });
  return readLoad(db, outcome.id, settings);
}
