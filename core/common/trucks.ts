import { eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../drizzle/db';
import { trucks } from '../../drizzle/schema';
import { appError } from '../errors';

/** "Does this truck exist", for every feature that takes a truck id (costs, stock, loads, fuel). */
export async function findTruck(db: DbOrTx, truckId: string) {
  const [t] = await db.select().from(trucks).where(eq(trucks.id, truckId)).limit(1);
  return t;
}

/** The truck, or a 400 with the caller's message (each form names the truck its own way). */
export async function requireTruck(db: DbOrTx, truckId: string, message: string) {
  const t = await findTruck(db, truckId);
  if (!t) throw appError('BAD_REQUEST', message);
  return t;
}

/**
 * Serialises writes for one truck inside the caller's transaction, so a duplicate check and the insert
 * that follows it cannot interleave with an identical submission (20 racing requests store one entry).
 */
export async function lockTruck(tx: Tx, scope: string, truckId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${scope}:${truckId}`}))`);
}
