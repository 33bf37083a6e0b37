import { asc, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../../drizzle/db';
import { assignments, drivers, orders, trucks } from '../../../drizzle/schema';
import type { TListedOrder, TOrderCreated } from '../../../shared/schemas/orders';

type OrderRow = typeof orders.$inferSelect;

export function toOrderCreated(row: OrderRow): TOrderCreated {
  return {
    id: row.id,
    status: row.status,
    perTruck: row.perTruckCents / 100,
    total: row.totalCents / 100,
    distanceKm: row.distanceKm,
    distanceSource: row.distanceSource,
    truckCount: row.trucks,
    sandType: row.sandType,
  };
}

/** Orders in the spec's listed shape (snake_case), newest first, each with its assignments. */
export async function listOrders(db: DbOrTx, where?: SQL, limit = 500): Promise<TListedOrder[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
  if (rows.length === 0) return [];
  const loads = await db
    .select({
      id: assignments.id,
      orderId: assignments.orderId,
      truckId: assignments.truckId,
      plate: trucks.plate,
      tonnes: assignments.tonnes,
      scheduledAt: assignments.scheduledAt,
      status: assignments.status,
      driver: drivers.name,
    })
    .from(assignments)
    .leftJoin(trucks, eq(trucks.id, assignments.truckId))
    .leftJoin(drivers, eq(drivers.id, assignments.driverId))
    .where(
      inArray(
        assignments.orderId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(assignments.id));
  const byOrder = new Map<number, TListedOrder['assignments']>();
  for (const a of loads) {
    const list = byOrder.get(a.orderId) ?? [];
    list.push({
      id: a.id,
      truck_id: a.truckId,
      truckId: a.truckId,
      plate: a.plate,
      tonnes: a.tonnes,
      scheduledAt: a.scheduledAt?.toISOString() ?? null,
      status: a.status,
      driver: a.driver,
    });
    byOrder.set(a.orderId, list);
  }
  return rows.map((r) => ({
    id: r.id,
    created_at: r.createdAt.toISOString(),
    site: r.site,
    status: r.status,
    payment_status: r.paymentStatus ?? 'PENDING',
    sand_type: r.sandType,
    trucks: r.trucks,
    per_truck: r.perTruckCents / 100,
    total: r.totalCents / 100,
    distance_km: r.distanceKm,
    distance_source: r.distanceSource,
    date_needed: r.dateNeeded,
    assignments: byOrder.get(r.id) ?? [],
    name: r.name,
    email: r.email,
  }));
}
