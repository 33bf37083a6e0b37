import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { etimsBranches, etimsReference } from '../../drizzle/schema';

export type BranchRow = typeof etimsBranches.$inferSelect;
export type BranchUpdate = Partial<Omit<typeof etimsBranches.$inferInsert, 'id'>>;

/** The branch invoices are numbered under while eTIMS is off (receipts only, never sent to KRA). */
export const LOCAL_BRANCH = 'local';

export const branchIdOf = (tin: string, bhfId: string) => `${tin}-${bhfId}`;

/**
 * Makes `id` the one active branch (creating it with the given facts the first time); the others stop
 * being active. Counters and the device key of an existing branch are kept.
 */
export async function activateBranch(
  db: DbOrTx,
  row: Pick<
    typeof etimsBranches.$inferInsert,
    'id' | 'tin' | 'bhfId' | 'deviceSerial' | 'enabled' | 'vatRegistered'
  >,
  now: Date,
) {
  await db.transaction(async (tx) => {
    await tx
      .update(etimsBranches)
      .set({ active: false, updatedAt: now })
      .where(and(eq(etimsBranches.active, true), sql`${etimsBranches.id} <> ${row.id}`));
    await tx
      .insert(etimsBranches)
      .values({
        ...row,
        active: true,
        status: row.enabled ? 'ok' : 'off',
        statusAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: etimsBranches.id,
        set: {
          active: true,
          enabled: row.enabled,
          deviceSerial: row.deviceSerial,
          vatRegistered: row.vatRegistered,
          updatedAt: now,
        },
      });
  });
}

/** The active branch, locked until the transaction ends: its counters are taken under this lock. */
export async function lockActiveBranch(tx: DbOrTx): Promise<BranchRow | undefined> {
  const [row] = await tx
    .select()
    .from(etimsBranches)
    .where(eq(etimsBranches.active, true))
    .for('update')
    .limit(1);
  return row;
}

export async function activeBranch(db: DbOrTx): Promise<BranchRow | undefined> {
  const [row] = await db.select().from(etimsBranches).where(eq(etimsBranches.active, true)).limit(1);
  return row;
}

export async function branchById(db: DbOrTx, id: string): Promise<BranchRow | undefined> {
  const [row] = await db.select().from(etimsBranches).where(eq(etimsBranches.id, id)).limit(1);
  return row;
}

/** The local branch, made active when no branch is (a database that never saw the settings synced). */
export async function ensureLocalBranch(tx: DbOrTx, now: Date) {
  await tx
    .insert(etimsBranches)
    .values({ id: LOCAL_BRANCH, enabled: false, active: true, status: 'off', createdAt: now, updatedAt: now })
    .onConflictDoNothing();
}

/** Takes the next invoice number of a locked branch (gap-free: it is given back if the transaction rolls back). */
export async function takeInvoiceNumber(tx: DbOrTx, branchId: string): Promise<number> {
  const [row] = await tx
    .update(etimsBranches)
    .set({ nextInvoiceNo: sql`${etimsBranches.nextInvoiceNo} + 1` })
    .where(eq(etimsBranches.id, branchId))
    .returning({ next: etimsBranches.nextInvoiceNo });
  return row!.next - 1;
}

/** Takes the next stock movement number (`sarNo`). */
export async function takeSarNumber(tx: DbOrTx, branchId: string): Promise<number> {
  const [row] = await tx
    .update(etimsBranches)
    .set({ nextSarNo: sql`${etimsBranches.nextSarNo} + 1` })
    .where(eq(etimsBranches.id, branchId))
    .returning({ next: etimsBranches.nextSarNo });
  return row!.next - 1;
}

export async function updateBranch(db: DbOrTx, id: string, values: BranchUpdate) {
  await db.update(etimsBranches).set(values).where(eq(etimsBranches.id, id));
}

/**
 * Takes the branch's delivery lease until `until` unless another runner holds one that has not ended:
 * one pass at a time per branch, across processes, without a transaction held over KRA's answers.
 */
export async function takeLease(db: DbOrTx, id: string, owner: string, now: Date, until: Date) {
  const rows = await db
    .update(etimsBranches)
    .set({ leaseOwner: owner, leaseUntil: until })
    .where(
      and(
        eq(etimsBranches.id, id),
        or(
          isNull(etimsBranches.leaseUntil),
          lt(etimsBranches.leaseUntil, now),
          eq(etimsBranches.leaseOwner, owner),
        ),
      ),
    )
    .returning({ id: etimsBranches.id });
  return rows.length > 0;
}

export async function releaseLease(db: DbOrTx, id: string, owner: string) {
  await db
    .update(etimsBranches)
    .set({ leaseOwner: null, leaseUntil: null })
    .where(and(eq(etimsBranches.id, id), eq(etimsBranches.leaseOwner, owner)));
}

export async function saveReference(
  db: DbOrTx,
  branchId: string,
  kind: 'codes' | 'item_classes',
  data: unknown,
  resultDt: string | null,
  now: Date,
) {
  await db
    .insert(etimsReference)
    .values({ branchId, kind, data, resultDt, fetchedAt: now })
    .onConflictDoUpdate({
      target: [etimsReference.branchId, etimsReference.kind],
      set: { data, resultDt, fetchedAt: now },
    });
}

export async function referenceOf(db: DbOrTx, branchId: string, kind: 'codes' | 'item_classes') {
  const [row] = await db
    .select()
    .from(etimsReference)
    .where(and(eq(etimsReference.branchId, branchId), eq(etimsReference.kind, kind)))
    .limit(1);
  return row;
}
