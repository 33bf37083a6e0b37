import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../drizzle/db';
import { assignments, drivers, orders, stockTransactions, trucks } from '../../../drizzle/schema';
import { loadMove, orderStatusForLoads } from '../../../shared/domain/assignments';
import { ADMIN_ORDER_MESSAGES, type TAssignment } from '../../../shared/schemas/admin-orders';
import type { CtxUser } from '../../context';
import { appError } from '../../errors';

export async function listAssignments(db: DbOrTx, orderId: number): Promise<TAssignment[]> {
  const rows = await db
    .select({ a: assignments, plate: trucks.plate, driver: drivers.name })
    .from(assignments)
    .leftJoin(trucks, eq(trucks.id, assignments.truckId))
    .leftJoin(drivers, eq(drivers.id, assignments.driverId))
    .where(eq(assignments.orderId, orderId))
    .orderBy(asc(assignments.id));
  return rows.map(({ a, plate, driver }) => ({
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
    deliveredAt: a.deliveredAt?.toISOString() ?? null,
  }));
}

type Status = (typeof assignments.$inferSelect)['status'];

/**
 * Moves a load on (ops, or the driver it is assigned to) and carries the order along; a delivered load
 * takes its tonnes out of yard stock once (the stock row is unique per load).
 */
export async function moveLoad(db: DbOrTx, user: CtxUser, id: number, to: Status, now: Date) {
  return db.transaction(async (tx) => {
    const [load] = await tx.select().from(assignments).where(eq(assignments.id, id)).for('update').limit(1);
    if (!load) throw appError('NOT_FOUND', ADMIN_ORDER_MESSAGES.assignmentNotFound);
    const actor = user.role === 'DRIVER' ? 'driver' : 'ops';
    if (actor === 'driver' && (!user.driverId || load.driverId !== user.driverId)) {
      throw appError('FORBIDDEN', ADMIN_ORDER_MESSAGES.notYourLoad);
    }
    const verdict = loadMove(load.status, to, actor);
    if (verdict === 'same') return load;
    if (verdict === 'driver-cannot-cancel')
      throw appError('FORBIDDEN', ADMIN_ORDER_MESSAGES.driverCannotCancel);
    if (verdict === 'not-allowed')
      throw appError('CONFLICT', ADMIN_ORDER_MESSAGES.badTransition(load.status, to));

    const [moved] = await tx
      .update(assignments)
      .set({
        status: to,
        updatedAt: now,
        ...(to === 'IN_TRANSIT' ? { inTransitAt: now } : {}),
        ...(to === 'DELIVERED' ? { deliveredAt: now, inTransitAt: load.inTransitAt ?? now } : {}),
        ...(to === 'CANCELLED' ? { cancelledAt: now } : {}),
      })
      .where(eq(assignments.id, id))
      .returning();
    const [order] = await tx.select().from(orders).where(eq(orders.id, load.orderId)).for('update').limit(1);
    if (to === 'DELIVERED' && order) {
      await tx
        .insert(stockTransactions)
        .values({
          kind: 'DELIVERY',
          trucks: -(load.tonnes / 20),
          tonnes: -load.tonnes,
          category: order.sandType,
          truckId: load.truckId,
          reason: `Delivered to order #${order.id} (${order.site})`,
          assignmentId: load.id,
          createdById: user.id,
        })
        .onConflictDoNothing();
    }
    if (order) {
      const loads = await tx
        .select({ status: assignments.status })
        .from(assignments)
        .where(eq(assignments.orderId, order.id));
      const next = orderStatusForLoads(order.status, order.trucks, loads);
      if (next !== order.status)
        await tx.update(orders).set({ status: next, updatedAt: now }).where(eq(orders.id, order.id));
    }
    return moved!;
  });
}

/** Orders with or without loads scheduled, for the workspace filter. */
export function assignedFilter(assigned: boolean | undefined) {
  if (assigned === undefined) return undefined;
  const exists = sql`exists (select 1 from ${assignments} where ${assignments.orderId} = ${orders.id} and ${assignments.status} <> 'CANCELLED')`;
  return assigned ? exists : sql`not ${exists}`;
}
