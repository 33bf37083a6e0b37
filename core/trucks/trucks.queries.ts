import { and, asc, eq, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { drivers, grossLimits, trucks } from '../../drizzle/schema';
import { legalPayloadT } from '../../shared/domain/legal-weight';
import type { TGrossLimit, TTruck } from '../../shared/schemas/fleet';

/** The gross weight limits by axle count (tonnes). */
export async function grossLimitMap(db: DbOrTx): Promise<Record<number, number>> {
  const rows = await db.select().from(grossLimits);
  return Object.fromEntries(rows.map((r) => [r.axles, r.grossT]));
}

export async function listGrossLimits(db: DbOrTx): Promise<TGrossLimit[]> {
  const rows = await db.select().from(grossLimits).orderBy(asc(grossLimits.axles));
  return rows.map((r) => ({ axles: r.axles, grossT: r.grossT, updatedAt: r.updatedAt.toISOString() }));
}

export async function upsertGrossLimit(db: DbOrTx, axles: number, grossT: number, userId: number, now: Date) {
  await db
    .insert(grossLimits)
    .values({ axles, grossT, updatedById: userId, updatedAt: now })
    .onConflictDoUpdate({ target: grossLimits.axles, set: { grossT, updatedById: userId, updatedAt: now } });
}

/** Trucks with their primary driver's contact, by id (all of them, or one). */
export async function truckRows(db: DbOrTx, id?: string): Promise<TTruck[]> {
  const rows = await db
    .select({ truck: trucks, driver: drivers })
    .from(trucks)
    .leftJoin(drivers, eq(drivers.id, trucks.primaryDriverId))
    .where(id ? eq(trucks.id, id) : undefined)
    .orderBy(asc(trucks.id));
  const limits = await grossLimitMap(db);
  return rows.map(({ truck, driver }) => ({
    id: truck.id,
    plate: truck.plate,
    capacityT: truck.capacityT,
    capacity_t: truck.capacityT,
    primaryDriverId: truck.primaryDriverId,
    driverName: driver?.name ?? null,
    driverPhone: driver?.phone ?? null,
    driverEmail: driver?.email ?? null,
    deviceId: truck.deviceId,
    axles: truck.axles,
    tareT: truck.tareT,
    tankCapacityL: truck.tankCapacityL,
    legalPayloadT:
      truck.tareT !== null && limits[truck.axles] !== undefined
        ? legalPayloadT(limits[truck.axles]!, truck.tareT)
        : null,
    updatedAt: truck.updatedAt.toISOString(),
  }));
}

export async function driverExists(db: DbOrTx, driverId: string): Promise<boolean> {
  const rows = await db.select({ id: drivers.id }).from(drivers).where(eq(drivers.id, driverId)).limit(1);
  return rows.length > 0;
}

/** Whether another truck already carries this tracker. */
export async function deviceTakenByOther(db: DbOrTx, deviceId: string, truckId: string): Promise<boolean> {
  const rows = await db
    .select({ id: trucks.id })
    .from(trucks)
    .where(and(eq(trucks.deviceId, deviceId), ne(trucks.id, truckId)))
    .limit(1);
  return rows.length > 0;
}

/** False when the id is taken. */
export async function insertTruck(db: DbOrTx, values: typeof trucks.$inferInsert): Promise<boolean> {
  const inserted = await db
    .insert(trucks)
    .values(values)
    .onConflictDoNothing({ target: trucks.id })
    .returning({ id: trucks.id });
  return inserted.length > 0;
}

/** False when there is no such truck. */
export async function updateTruck(
  db: DbOrTx,
  id: string,
  set: Partial<typeof trucks.$inferInsert>,
): Promise<boolean> {
  const updated = await db.update(trucks).set(set).where(eq(trucks.id, id)).returning({ id: trucks.id });
  return updated.length > 0;
}
