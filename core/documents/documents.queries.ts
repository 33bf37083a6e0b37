import { and, asc, eq, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { assignments, invoices, orders, trucks } from '../../drizzle/schema';

export async function orderById(db: DbOrTx, id: number) {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
  return row;
}

/** A credit note of an order by its number. */
export async function orderCreditNote(db: DbOrTx, orderId: number, number: number) {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, 'R'), eq(invoices.number, number)))
    .limit(1);
  return row;
}

/** The order's loads that are not cancelled, with their plates. */
export function orderLoads(db: DbOrTx, orderId: number) {
  return db
    .select({
      plate: trucks.plate,
      tonnes: assignments.tonnes,
      status: assignments.status,
      deliveredAt: assignments.deliveredAt,
    })
    .from(assignments)
    .leftJoin(trucks, eq(trucks.id, assignments.truckId))
    .where(and(eq(assignments.orderId, orderId), ne(assignments.status, 'CANCELLED')))
    .orderBy(asc(assignments.id));
}
