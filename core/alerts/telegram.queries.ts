import { and, eq, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { alertDeliveries } from '../../drizzle/schema';

export async function delivery(db: DbOrTx, id: number) {
  const [row] = await db.select().from(alertDeliveries).where(eq(alertDeliveries.id, id)).limit(1);
  return row;
}

export function updateDelivery(db: DbOrTx, id: number, set: Partial<typeof alertDeliveries.$inferInsert>) {
  return db
    .update(alertDeliveries)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(alertDeliveries.id, id));
}

/**
 * Claims a delivery for sending (status SENDING, stamped by the database's clock) unless it was sent, or
 * another runner claimed it less than `staleAfterMs` ago. Undefined when not claimed.
 */
export async function claimForSending(db: DbOrTx, id: number, staleAfterMs: number) {
  const [row] = await db
    .update(alertDeliveries)
    .set({ status: 'SENDING', sendingAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(alertDeliveries.id, id),
        ne(alertDeliveries.status, 'SENT'),
        or(
          ne(alertDeliveries.status, 'SENDING'),
          sql`${alertDeliveries.sendingAt} < now() - make_interval(secs => ${staleAfterMs / 1000})`,
        ),
      ),
    )
    .returning();
  return row;
}

/** How long ago (ms, by the database's clock) a delivery was claimed for sending. */
export async function claimAgeMs(db: DbOrTx, id: number): Promise<number | undefined> {
  const [row] = await db
    .select({ ms: sql<number>`(extract(epoch from now() - ${alertDeliveries.sendingAt}) * 1000)::float8` })
    .from(alertDeliveries)
    .where(and(eq(alertDeliveries.id, id), eq(alertDeliveries.status, 'SENDING')));
  return row ? Number(row.ms) : undefined;
}
