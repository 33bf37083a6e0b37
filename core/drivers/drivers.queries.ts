import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { drivers } from '../../drizzle/schema';

export type DriverRow = typeof drivers.$inferSelect;

export function driverRows(db: DbOrTx): Promise<DriverRow[]> {
  return db.select().from(drivers).orderBy(asc(drivers.name));
}

/** Undefined when the id is taken. */
export async function insertDriver(
  db: DbOrTx,
  values: typeof drivers.$inferInsert,
): Promise<DriverRow | undefined> {
  const [row] = await db
    .insert(drivers)
    .values(values)
    .onConflictDoNothing({ target: drivers.id })
    .returning();
  return row;
}

export async function updateDriver(
  db: DbOrTx,
  id: string,
  set: Partial<typeof drivers.$inferInsert>,
): Promise<DriverRow | undefined> {
  const [row] = await db.update(drivers).set(set).where(eq(drivers.id, id)).returning();
  return row;
}

/** The driver's row, locked until the transaction ends (two edits replacing a photo queue up). */
export async function lockDriver(db: DbOrTx, id: string): Promise<DriverRow | undefined> {
  const [row] = await db.select().from(drivers).where(eq(drivers.id, id)).for('update').limit(1);
  return row;
}
