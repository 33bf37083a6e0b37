import { and, desc, eq, gte, isNull, lte } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { assignments, costs, trucks } from '../../drizzle/schema';

export type CostRow = typeof costs.$inferSelect;

/** The ledger with each truck's plate, newest first. */
export function listCostRows(db: DbOrTx, limit: number) {
  return db
    .select({ cost: costs, plate: trucks.plate })
    .from(costs)
    .leftJoin(trucks, eq(trucks.id, costs.truckId))
    .orderBy(desc(costs.incurredAt), desc(costs.id))
    .limit(limit);
}

/** Non-voided costs of this truck, type and amount incurred within `windowMs` of the candidate's time. */
export function costsNear(
  db: DbOrTx,
  c: { truckId: string; type: CostRow['type']; amountCents: number; incurredAt: Date },
  windowMs: number,
) {
  return db
    .select()
    .from(costs)
    .where(
      and(
        eq(costs.truckId, c.truckId),
        eq(costs.type, c.type),
        eq(costs.amountCents, c.amountCents),
        isNull(costs.voidedAt),
        gte(costs.incurredAt, new Date(c.incurredAt.getTime() - windowMs)),
        lte(costs.incurredAt, new Date(c.incurredAt.getTime() + windowMs)),
      ),
    );
}

export async function insertCost(db: DbOrTx, values: typeof costs.$inferInsert) {
  const [row] = await db.insert(costs).values(values).returning();
  return row!;
}

export async function findCost(db: DbOrTx, id: number) {
  const [row] = await db.select().from(costs).where(eq(costs.id, id)).limit(1);
  return row;
}

export async function updateCostRow(db: DbOrTx, id: number, set: Partial<typeof costs.$inferInsert>) {
  const [row] = await db.update(costs).set(set).where(eq(costs.id, id)).returning();
  return row!;
}

/** The truck a load is on, or undefined for no such load. */
export async function loadTruck(db: DbOrTx, assignmentId: number): Promise<string | undefined> {
  const [row] = await db
    .select({ truckId: assignments.truckId })
    .from(assignments)
    .where(eq(assignments.id, assignmentId));
  return row?.truckId;
}
