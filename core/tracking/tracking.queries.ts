import { and, asc, avg, eq, gte, isNotNull, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { assignments, drivers, orders, truckLatest, truckPositions, trucks } from '../../drizzle/schema';

export type TrackedOrderRow = typeof orders.$inferSelect;

/** The order a tracking token belongs to (the token is unique and unguessable). */
export async function orderByToken(db: DbOrTx, token: string): Promise<TrackedOrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.trackingToken, token)).limit(1);
  return row;
}

/** The order's loads that are not cancelled, oldest first, with truck, driver and the truck's last fix. */
export function trackedLoads(db: DbOrTx, orderId: number) {
  return db
    .select({
      id: assignments.id,
      truckId: assignments.truckId,
      status: assignments.status,
      tonnes: assignments.tonnes,
      scheduledAt: assignments.scheduledAt,
      inTransitAt: assignments.inTransitAt,
      arrivedAt: assignments.arrivedAt,
      deliveredAt: assignments.deliveredAt,
      plate: trucks.plate,
      driverName: drivers.name,
      driverPhone: drivers.phone,
      lat: truckLatest.lat,
      lng: truckLatest.lng,
      heading: truckLatest.heading,
      speedKmh: truckLatest.speedKmh,
      fixTime: truckLatest.fixTime,
    })
    .from(assignments)
    .leftJoin(trucks, eq(trucks.id, assignments.truckId))
    .leftJoin(drivers, eq(drivers.id, assignments.driverId))
    .leftJoin(truckLatest, eq(truckLatest.truckId, assignments.truckId))
    .where(and(eq(assignments.orderId, orderId), ne(assignments.status, 'CANCELLED')))
    .orderBy(asc(assignments.id));
}

/** The truck's average reported speed (km/h) over its fixes since `since`; null with none. */
export async function recentAverageKmh(db: DbOrTx, truckId: string, since: Date): Promise<number | null> {
  const [row] = await db
    .select({ kmh: avg(truckPositions.speedKmh) })
    .from(truckPositions)
    .where(
      and(
        eq(truckPositions.truckId, truckId),
        gte(truckPositions.fixTime, since),
        isNotNull(truckPositions.speedKmh),
      ),
    );
  return row?.kmh === null || row?.kmh === undefined ? null : Number(row.kmh);
}
