import { eq } from 'drizzle-orm';
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
