import { eq, or } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { assignments, deliveryProofs, drivers, fuelLogs } from '../../drizzle/schema';

/** The driver whose ID or profile photo this file is. */
export async function driverOwningFile(db: DbOrTx, name: string): Promise<string | undefined> {
  const [own] = await db
    .select({ id: drivers.id })
    .from(drivers)
    .where(or(eq(drivers.nationalIdPath, name), eq(drivers.photoPath, name)))
    .limit(1);
  return own?.id;
}

export async function fuelLogHasPhoto(db: DbOrTx, name: string): Promise<boolean> {
  const rows = await db
    .select({ id: fuelLogs.id })
    .from(fuelLogs)
    .where(eq(fuelLogs.photoPath, name))
    .limit(1);
  return rows.length > 0;
}

/** The load a delivery photo proves, with its driver; undefined when no proof references it. */
export async function deliveryPhotoDriver(
  db: DbOrTx,
  name: string,
): Promise<{ driverId: string | null } | undefined> {
  const [row] = await db
    .select({ driverId: assignments.driverId })
    .from(deliveryProofs)
    .innerJoin(assignments, eq(assignments.id, deliveryProofs.assignmentId))
    .where(eq(deliveryProofs.photoPath, name))
    .limit(1);
  return row;
}
