import { and, asc, desc, eq, gt, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, rows } from '../../drizzle/db';
import { mpesaCallbacks, mpesaStkRequests, outbox, payments, users } from '../../drizzle/schema';
import { unmatched } from '../payments/payments.queries';

// Every SQL statement on M-Pesa's callbacks and payment prompts (the payment rows they make are in
// core/payments/payments.queries.ts).

export type CallbackRow = typeof mpesaCallbacks.$inferSelect;
export type StkRequestRow = typeof mpesaStkRequests.$inferSelect;

// ---- callbacks ---------------------------------------------------------------------------------------

/** Stores a callback as it came; validation answers are final at once (nothing to process after). */
export async function insertCallback(
  db: DbOrTx,
  values: typeof mpesaCallbacks.$inferInsert,
): Promise<number> {
  const [row] = await db.insert(mpesaCallbacks).values(values).returning({ id: mpesaCallbacks.id });
  return row!.id;
}

/**
 * Stores callbacks as they came, each with its `mpesa.process` outbox row (the payload and dedupe id
 * `writeOutbox` would write), in one statement: atomic as a transaction, but one round trip and one commit
 * for all of them. Their ids come back in the order given.
 */
export async function insertCallbacksWithJobs(
  db: DbOrTx,
  callbacks: Array<{ kind: 'STK' | 'C2B_CONFIRMATION'; body: string; sourceIp: string; receivedAt: Date }>,
): Promise<number[]> {
  const values = sql.join(
    callbacks.map(
      (cb, i) =>
        sql`(${i}::int, ${cb.kind}, ${cb.body}, ${cb.sourceIp}, ${cb.receivedAt.toISOString()}::timestamptz)`,
    ),
    sql`, `,
  );
  const inserted = await rows<{ id: string | number }>(
    db,
    sql`with given (n, kind, body, source_ip, received_at) as (values ${values}),
        cb as (
          insert into ${mpesaCallbacks} (kind, body, source_ip, received_at)
          select kind, body, source_ip, received_at from given order by n
          returning id
        ), job as (
          insert into ${outbox} (job, payload, dedupe_id)
          select 'mpesa.process', jsonb_build_object('callbackId', cb.id), 'mpesa.process:' || cb.id from cb
        )
        select id from cb order by id`,
  );
  return inserted.map((r) => Number(r.id));
}

/** The callback, locked until the transaction ends (a re-run job waits, then sees it processed). */
export async function lockCallback(db: DbOrTx, id: number): Promise<CallbackRow | undefined> {
  const [row] = await db
    .select()
    .from(mpesaCallbacks)
    .where(eq(mpesaCallbacks.id, id))
    .for('update')
    .limit(1);
  return row;
}

export async function markCallback(
  db: DbOrTx,
  id: number,
  set: { processedAt: Date | null; ref?: string | null; outcome?: string | null; error?: string | null },
) {
  await db.update(mpesaCallbacks).set(set).where(eq(mpesaCallbacks.id, id));
}

export async function recordCallbackError(db: DbOrTx, id: number, error: string) {
  await db.update(mpesaCallbacks).set({ error }).where(eq(mpesaCallbacks.id, id));
}

/** The bodies of the STK callbacks that answered this prompt, oldest first. */
export async function stkCallbackBodies(db: DbOrTx, checkoutRequestId: string): Promise<string[]> {
  const found = await db
    .select({ body: mpesaCallbacks.body })
    .from(mpesaCallbacks)
    .where(and(eq(mpesaCallbacks.kind, 'STK'), eq(mpesaCallbacks.ref, checkoutRequestId)))
    .orderBy(asc(mpesaCallbacks.id));
  return found.map((r) => r.body);
}

// ---- prompts -----------------------------------------------------------------------------------------

export async function insertStkRequest(db: DbOrTx, values: typeof mpesaStkRequests.$inferInsert) {
  const [row] = await db.insert(mpesaStkRequests).values(values).returning();
  return row!;
}

/** The order's prompts sent since `since`, newest first. */
export function promptsSince(db: DbOrTx, orderId: number, since: Date) {
  return db
    .select()
    .from(mpesaStkRequests)
    .where(and(eq(mpesaStkRequests.orderId, orderId), gt(mpesaStkRequests.createdAt, since)))
    .orderBy(desc(mpesaStkRequests.createdAt));
}

export async function countPaidPrompts(db: DbOrTx, orderId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(mpesaStkRequests)
    .where(and(eq(mpesaStkRequests.orderId, orderId), eq(mpesaStkRequests.status, 'PAID')));
  return Number(row?.n ?? 0);
}

export async function findPrompt(db: DbOrTx, orderId: number, checkoutRequestId: string) {
  const [row] = await db
    .select()
    .from(mpesaStkRequests)
    .where(
      and(eq(mpesaStkRequests.orderId, orderId), eq(mpesaStkRequests.checkoutRequestId, checkoutRequestId)),
    )
    .limit(1);
  return row;
}

export async function lockStkRequest(
  db: DbOrTx,
  checkoutRequestId: string,
): Promise<StkRequestRow | undefined> {
  const [row] = await db
    .select()
    .from(mpesaStkRequests)
    .where(eq(mpesaStkRequests.checkoutRequestId, checkoutRequestId))
    .for('update')
    .limit(1);
  return row;
}

export async function updateStkRequest(
  db: DbOrTx,
  id: number,
  set: Partial<typeof mpesaStkRequests.$inferInsert>,
) {
  await db.update(mpesaStkRequests).set(set).where(eq(mpesaStkRequests.id, id));
}

export async function recordQuery(db: DbOrTx, id: number, at: Date, error: string | null) {
  await db
    .update(mpesaStkRequests)
    .set({
      queriedAt: at,
      queryCount: sql`${mpesaStkRequests.queryCount} + 1`,
      queryError: error,
      updatedAt: at,
    })
    .where(eq(mpesaStkRequests.id, id));
}

// ---- what is still open ------------------------------------------------------------------------------

/** A prompt with no result that was sent before `sentBefore`. */
const quietPrompt = (sentBefore: Date) =>
  and(eq(mpesaStkRequests.status, 'PENDING'), lt(mpesaStkRequests.createdAt, sentBefore));
/** A callback whose processing has not finished since before `before`. */
const stuckCallback = (before: Date) =>
  and(isNull(mpesaCallbacks.processedAt), lt(mpesaCallbacks.receivedAt, before));
/** A stuck callback, or one that could not be read. */
const openCallback = (before: Date) => or(stuckCallback(before), eq(mpesaCallbacks.outcome, 'unreadable'));

/** Quiet prompts, oldest first. */
export function quietPrompts(db: DbOrTx, sentBefore: Date, limit = 200) {
  return db
    .select()
    .from(mpesaStkRequests)
    .where(quietPrompt(sentBefore))
    .orderBy(asc(mpesaStkRequests.createdAt))
    .limit(limit);
}

/**
 * Quiet prompts not asked about since `askedBefore`, at most `maxQueries` times each: the ones whose
 * callback has not come, for the reconciliation job to ask Daraja about.
 */
export function promptsToQuery(
  db: DbOrTx,
  sentBefore: Date,
  askedBefore: Date,
  maxQueries: number,
  limit = 50,
) {
  return db
    .select({ id: mpesaStkRequests.id, checkoutRequestId: mpesaStkRequests.checkoutRequestId })
    .from(mpesaStkRequests)
    .where(
      and(
        quietPrompt(sentBefore),
        or(isNull(mpesaStkRequests.queriedAt), lt(mpesaStkRequests.queriedAt, askedBefore)),
        lt(mpesaStkRequests.queryCount, maxQueries),
      ),
    )
    .orderBy(asc(mpesaStkRequests.createdAt))
    .limit(limit);
}

/** Stuck callbacks (their job failed or was lost), oldest first, for the reconciliation job. */
export function stuckCallbacks(db: DbOrTx, before: Date, limit = 100) {
  return db
    .select({ id: mpesaCallbacks.id })
    .from(mpesaCallbacks)
    .where(stuckCallback(before))
    .orderBy(asc(mpesaCallbacks.receivedAt))
    .limit(limit);
}

/** Open callbacks, oldest first, for ops. */
export function openCallbacks(db: DbOrTx, before: Date, limit = 200) {
  return db
    .select({
      id: mpesaCallbacks.id,
      kind: mpesaCallbacks.kind,
      receivedAt: mpesaCallbacks.receivedAt,
      error: mpesaCallbacks.error,
    })
    .from(mpesaCallbacks)
    .where(openCallback(before))
    .orderBy(asc(mpesaCallbacks.receivedAt))
    .limit(limit);
}

const countOf = (
  table: typeof payments | typeof mpesaStkRequests | typeof mpesaCallbacks,
  where: SQL | undefined,
) => sql<number>`(select count(*) from ${table} where ${where})::int`;

/** How much is open: unmatched payments, quiet prompts, open callbacks (the same rules as the lists). */
export async function openCounts(db: DbOrTx, promptsSentBefore: Date, callbacksBefore: Date) {
  const [row] = await db
    .select({
      unmatched: countOf(payments, unmatched),
      prompts: countOf(mpesaStkRequests, quietPrompt(promptsSentBefore)),
      callbacks: countOf(mpesaCallbacks, openCallback(callbacksBefore)),
    })
    .from(sql`(select 1) as one`);
  return {
    unmatched: Number(row?.unmatched ?? 0),
    prompts: Number(row?.prompts ?? 0),
    callbacks: Number(row?.callbacks ?? 0),
  };
}

export async function userName(db: DbOrTx, id: number): Promise<string> {
  const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, id)).limit(1);
  return row?.name ?? '';
}
