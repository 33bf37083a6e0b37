import { asc, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { drivers, users } from '../../drizzle/schema';
import type { UserRow } from '../auth/auth.queries';

/** Staff accounts (every role but CUSTOMER), oldest first. */
export function staffRows(db: DbOrTx): Promise<UserRow[]> {
  return db.select().from(users).where(ne(users.role, 'CUSTOMER')).orderBy(asc(users.id));
}

export async function driverHasAccount(db: DbOrTx, driverId: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`${users.driverId} = ${driverId} and ${users.role} = 'DRIVER'`)
    .limit(1);
  return rows.length > 0;
}

/** A driver profile for a new DRIVER account, from the account's details; an existing one is kept. */
export async function insertDriverIfMissing(
  db: DbOrTx,
  driverId: string,
  details: { name: string; email: string; phone: string },
) {
  await db
    .insert(drivers)
    .values({ id: driverId, name: details.name, email: details.email || null, phone: details.phone || null })
    .onConflictDoNothing();
}

/** Disabling moves the token version on, which signs the user out everywhere at once. */
export async function setDisabled(
  db: DbOrTx,
  userId: number,
  disabled: boolean,
  now: Date,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set(
      disabled
        ? { disabledAt: now, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: now }
        : { disabledAt: null, updatedAt: now },
    )
    .where(eq(users.id, userId))
    .returning();
  return row;
}

/** The account, locked for the rest of the transaction (its before-image for the action log). */
export async function userById(db: DbOrTx, userId: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).for('update');
  return row;
}
