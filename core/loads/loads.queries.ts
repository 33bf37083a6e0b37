import { and, asc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../drizzle/db';
import {
  assignments,
  deliveryProofs,
  drivers,
  loadEvents,
  orders,
  truckLatest,
  trucks,
  users,
} from '../../drizzle/schema';
import type { TAssignment } from '../../shared/schemas/admin-orders';
import type { TDeliveryProof, TLoadEvent } from '../../shared/schemas/loads';

export type AssignmentRow = typeof assignments.$inferSelect;

const recorder = alias(users, 'recorder');

/** The proof as staff see it: the photo through the access-checked uploads route. */
export function proofOf(
  p: null | {
    photoPath: string | null;
    method: 'code' | 'receiver' | null;
    receiverName: string | null;
    flagged: boolean | null;
    recordedAt: Date | null;
  },
  recordedBy: string | null,
): TDeliveryProof | null {
  if (!p?.photoPath || !p.method || !p.recordedAt) return null;
  return {
    photoUrl: `/api/uploads/${p.photoPath}`,
    method: p.method,
    receiverName: p.receiverName,
    flagged: p.flagged ?? false,
    recordedAt: p.recordedAt.toISOString(),
    recordedBy,
  };
}

/** The loads' moves, oldest first, with who made the ones made by hand. */
async function historyOf(db: DbOrTx, ids: number[]): Promise<Map<number, TLoadEvent[]>> {
  const byLoad = new Map<number, TLoadEvent[]>();
  if (ids.length === 0) return byLoad;
  const rows = await db
    .select({ e: loadEvents, by: users.name })
    .from(loadEvents)
    .leftJoin(users, eq(users.id, loadEvents.byUserId))
    .where(inArray(loadEvents.assignmentId, ids))
    .orderBy(asc(loadEvents.at), asc(loadEvents.id));
  for (const { e, by } of rows) {
    const list = byLoad.get(e.assignmentId) ?? [];
    list.push({
      from: e.fromStatus,
      to: e.toStatus,
      at: e.at.toISOString(),
      source: e.source,
      by,
      reason: e.reason,
    });
    byLoad.set(e.assignmentId, list);
  }
  return byLoad;
}

/** Loads with their truck's plate, driver's name and proof of delivery, oldest first: every load listing's SELECT. */
export function loadRows(db: DbOrTx, where: SQL | undefined) {
  return db
    .select({
      a: assignments,
      plate: trucks.plate,
      driver: drivers.name,
      proof: {
        photoPath: deliveryProofs.photoPath,
        method: deliveryProofs.method,
        receiverName: deliveryProofs.receiverName,
        flagged: deliveryProofs.flagged,
        recordedAt: deliveryProofs.recordedAt,
      },
      recordedBy: recorder.name,
    })
    .from(assignments)
    .leftJoin(trucks, eq(trucks.id, assignments.truckId))
    .leftJoin(drivers, eq(drivers.id, assignments.driverId))
    .leftJoin(deliveryProofs, eq(deliveryProofs.assignmentId, assignments.id))
    .leftJoin(recorder, eq(recorder.id, deliveryProofs.recordedById))
    .where(where)
    .orderBy(asc(assignments.id));
}

async function assignmentRows(db: DbOrTx, where: SQL): Promise<TAssignment[]> {
  const rows = await loadRows(db, where);
  const history = await historyOf(
    db,
    rows.map((r) => r.a.id),
  );
  return rows.map(({ a, plate, driver, proof, recordedBy }) => ({
    id: a.id,
    orderId: a.orderId,
    truck_id: a.truckId,
    truckId: a.truckId,
    plate,
    tonnes: a.tonnes,
    scheduledAt: a.scheduledAt?.toISOString() ?? null,
    status: a.status,
    driver,
    driverId: a.driverId,
    inTransitAt: a.inTransitAt?.toISOString() ?? null,
    arrivedAt: a.arrivedAt?.toISOString() ?? null,
    deliveredAt: a.deliveredAt?.toISOString() ?? null,
    scheduledBeforePayment: a.scheduledBeforePayment,
    overrideLegalLimit: a.overrideLegalLimit,
    overrideReason: a.overrideReason,
    proof: proofOf(proof, recordedBy),
    withoutProof: a.status === 'DELIVERED' && !proof?.photoPath,
    history: history.get(a.id) ?? [],
  }));
}

/** An order's loads with truck plate and driver name, oldest first. */
export function listAssignments(db: DbOrTx, orderId: number): Promise<TAssignment[]> {
  return assignmentRows(db, eq(assignments.orderId, orderId));
}

export async function findAssignment(db: DbOrTx, id: number): Promise<TAssignment | undefined> {
  return (await assignmentRows(db, eq(assignments.id, id)))[0];
}

export async function driverExists(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db.select({ id: drivers.id }).from(drivers).where(eq(drivers.id, id)).limit(1);
  return rows.length > 0;
}

/** Tonnes on the order's loads that are not cancelled (scheduled, on the road or delivered). */
export async function scheduledTonnes(db: DbOrTx, orderId: number): Promise<number> {
  const [row] = await db
    .select({ tonnes: sql<string>`coalesce(sum(${assignments.tonnes}), 0)` })
    .from(assignments)
    .where(and(eq(assignments.orderId, orderId), ne(assignments.status, 'CANCELLED')));
  return Number(row?.tonnes ?? 0);
}

export async function insertAssignment(db: DbOrTx, values: typeof assignments.$inferInsert): Promise<number> {
  const [row] = await db.insert(assignments).values(values).returning({ id: assignments.id });
  return row!.id;
}

/** The orders the loads belong to (loads never change order), read without a lock. */
export async function ordersOfLoads(db: DbOrTx, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectDistinct({ orderId: assignments.orderId })
    .from(assignments)
    .where(inArray(assignments.id, [...ids]));
  return rows.map((r) => r.orderId);
}

export type OrderRow = typeof orders.$inferSelect;

/**
 * The orders, then the loads, locked in id order: the order every writer of a load takes them in (and
 * every writer of an order locks it first), so two writers never wait on each other in turn.
 */
export async function lockOrdersAndLoads(
  db: DbOrTx,
  orderIds: readonly number[],
  loadIds: readonly number[],
): Promise<{ orders: OrderRow[]; loads: AssignmentRow[] }> {
  const lockedOrders =
    orderIds.length === 0
      ? []
      : await db
          .select()
          .from(orders)
          .where(inArray(orders.id, [...orderIds]))
          .orderBy(asc(orders.id))
          .for('update');
  const lockedLoads =
    loadIds.length === 0
      ? []
      : await db
          .select()
          .from(assignments)
          .where(inArray(assignments.id, [...loadIds]))
          .orderBy(asc(assignments.id))
          .for('update');
  return { orders: lockedOrders, loads: lockedLoads };
}

export async function updateAssignment(
  db: DbOrTx,
  id: number,
  set: Partial<typeof assignments.$inferInsert>,
): Promise<AssignmentRow> {
  const [row] = await db.update(assignments).set(set).where(eq(assignments.id, id)).returning();
  return row!;
}

export function loadStatuses(db: DbOrTx, orderId: number) {
  return db
    .select({ status: assignments.status, tonnes: assignments.tonnes })
    .from(assignments)
    .where(eq(assignments.orderId, orderId));
}

export async function setOrderStatus(
  db: DbOrTx,
  orderId: number,
  status: (typeof orders.$inferSelect)['status'],
  now: Date,
) {
  await db.update(orders).set({ status, updatedAt: now }).where(eq(orders.id, orderId));
}

/** The order's loads go on the customer's account terms from now on (invoiced per delivered load). */
export async function setOrderOnTerms(db: DbOrTx, orderId: number, now: Date) {
  await db.update(orders).set({ onTerms: true, updatedAt: now }).where(eq(orders.id, orderId));
}

export async function insertLoadEvent(db: DbOrTx, values: typeof loadEvents.$inferInsert) {
  await db.insert(loadEvents).values(values);
}

export async function insertProof(db: DbOrTx, values: typeof deliveryProofs.$inferInsert) {
  await db.insert(deliveryProofs).values(values);
}

/** One more wrong delivery code on the order; the count so far. */
export async function countWrongCode(db: DbOrTx, orderId: number): Promise<number> {
  const [row] = await db
    .update(orders)
    .set({ deliveryCodeFailures: sql`${orders.deliveryCodeFailures} + 1` })
    .where(eq(orders.id, orderId))
    .returning({ failures: orders.deliveryCodeFailures });
  return row?.failures ?? 0;
}

export async function clearWrongCodes(db: DbOrTx, orderId: number) {
  await db.update(orders).set({ deliveryCodeFailures: 0 }).where(eq(orders.id, orderId));
}

/** The truck's latest fix and when it was taken. */
export async function latestPosition(db: DbOrTx, truckId: string) {
  const [row] = await db
    .select({ lat: truckLatest.lat, lng: truckLatest.lng, fixTime: truckLatest.fixTime })
    .from(truckLatest)
    .where(eq(truckLatest.truckId, truckId))
    .limit(1);
  return row;
}
