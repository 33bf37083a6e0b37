import { and, asc, desc, eq, gt, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import { type DbOrTx, rows } from '../../drizzle/db';
import {
  accountAllocations,
  assignments,
  customerAccounts,
  invoices,
  orders,
  payments,
  receivables,
  users,
} from '../../drizzle/schema';
import { OPEN_LOAD_STATUSES } from '../../shared/enums';

export type AccountRow = typeof customerAccounts.$inferSelect;
export type ReceivableRow = typeof receivables.$inferSelect;
export type AllocationRow = typeof accountAllocations.$inferSelect;

/** The user an account belongs to (any role: the caller refuses what is not a customer). */
export async function userById(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: users.id, name: users.name, email: users.email, phone: users.phone, role: users.role })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row;
}

/** `%` and `_` typed by a person are letters, not wildcards. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Customers whose name, e-mail or phone holds `text`, with whether they have terms; by name, at most `limit`.
 * Text typed as a phone number (digits, spaces, +, -, brackets) is matched by its digits too, so 0712… finds
 * +254712…; text with letters is a name or e-mail, and the digits among its letters are not a phone.
 */
export async function searchCustomers(db: DbOrTx, text: string, limit: number) {
  const like = likeText(text);
  const digits = /^[\d\s+()-]+$/.test(text) ? text.replace(/\D/g, '').replace(/^(254|0)/, '') : '';
  return db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      phone: users.phone,
      onTerms: sql<boolean>`${customerAccounts.customerId} is not null`,
    })
    .from(users)
    .leftJoin(customerAccounts, eq(customerAccounts.customerId, users.id))
    .where(
      and(
        eq(users.role, 'CUSTOMER'),
        or(
          ilike(users.name, like),
          ilike(users.email, like),
          ...(digits.length >= 2 ? [ilike(users.phone, likeText(digits))] : []),
        ),
      ),
    )
    .orderBy(asc(users.name), asc(users.id))
    .limit(limit);
}

export async function findAccount(db: DbOrTx, customerId: number): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(customerAccounts).where(eq(customerAccounts.customerId, customerId));
  return row;
}

/** The account's row, locked: every write that moves its balance or uses its credit takes it first. */
export async function lockAccount(tx: DbOrTx, customerId: number): Promise<AccountRow | undefined> {
  const [row] = await tx
    .select()
    .from(customerAccounts)
    .where(eq(customerAccounts.customerId, customerId))
    .for('update');
  return row;
}

export async function upsertAccount(
  tx: DbOrTx,
  values: typeof customerAccounts.$inferInsert,
): Promise<AccountRow> {
  const { customerId: _id, createdAt: _c, ...changes } = values;
  const [row] = await tx
    .insert(customerAccounts)
    .values(values)
    .onConflictDoUpdate({ target: customerAccounts.customerId, set: changes })
    .returning();
  return row!;
}

/** Invoices with something still open, oldest first. */
export function openReceivables(db: DbOrTx, customerId: number): Promise<ReceivableRow[]> {
  return db
    .select()
    .from(receivables)
    .where(
      and(
        eq(receivables.customerId, customerId),
        gt(receivables.totalCents, sql`${receivables.creditedCents} + ${receivables.allocatedCents}`),
      ),
    )
    .orderBy(asc(receivables.issuedAt), asc(receivables.invoiceId));
}

export async function lockReceivable(tx: DbOrTx, invoiceId: number): Promise<ReceivableRow | undefined> {
  const [row] = await tx.select().from(receivables).where(eq(receivables.invoiceId, invoiceId)).for('update');
  return row;
}

export async function insertReceivable(tx: DbOrTx, values: typeof receivables.$inferInsert) {
  await tx.insert(receivables).values(values);
}

/** Moves what is allocated (or credited) on an invoice by `cents` (negative gives back). */
export async function addToReceivable(
  tx: DbOrTx,
  invoiceId: number,
  change: { allocatedCents?: number; creditedCents?: number },
  now: Date,
) {
  await tx
    .update(receivables)
    .set({
      allocatedCents: sql`${receivables.allocatedCents} + ${change.allocatedCents ?? 0}`,
      creditedCents: sql`${receivables.creditedCents} + ${change.creditedCents ?? 0}`,
      updatedAt: now,
    })
    .where(eq(receivables.invoiceId, invoiceId));
}

export async function insertAllocations(
  tx: DbOrTx,
  rows: { paymentId: number; invoiceId: number; cents: number; at: Date }[],
) {
  if (rows.length > 0) await tx.insert(accountAllocations).values(rows);
}

/** The parts of payments standing against an invoice (not released). */
export function standingOnInvoice(tx: DbOrTx, invoiceId: number): Promise<AllocationRow[]> {
  return tx
    .select()
    .from(accountAllocations)
    .where(and(eq(accountAllocations.invoiceId, invoiceId), isNull(accountAllocations.releasedAt)));
}

/** The parts of one payment standing against invoices (not released). */
export function standingOfPayment(tx: DbOrTx, paymentId: number): Promise<AllocationRow[]> {
  return tx
    .select()
    .from(accountAllocations)
    .where(and(eq(accountAllocations.paymentId, paymentId), isNull(accountAllocations.releasedAt)))
    .orderBy(asc(accountAllocations.id));
}

/**
 * Gives back `cents` of a standing allocation: released whole, or split (the rest stands as a new row,
 * so a released row always says exactly what it gave back).
 */
export async function releaseAllocation(tx: DbOrTx, row: AllocationRow, cents: number, now: Date) {
  await tx
    .update(accountAllocations)
    .set({ releasedAt: now, cents })
    .where(eq(accountAllocations.id, row.id));
  if (cents < row.cents)
    await tx
      .insert(accountAllocations)
      .values({ paymentId: row.paymentId, invoiceId: row.invoiceId, cents: row.cents - cents, at: row.at });
}

export async function addToUnallocated(tx: DbOrTx, paymentId: number, cents: number, now: Date) {
  await tx
    .update(payments)
    .set({ unallocatedCents: sql`${payments.unallocatedCents} + ${cents}`, updatedAt: now })
    .where(eq(payments.id, paymentId));
}

/** The account's payments with money not yet on an invoice, oldest first (a credit pays the next invoice). */
export function paymentsWithCredit(tx: DbOrTx, customerId: number) {
  return tx
    .select({ id: payments.id, unallocatedCents: payments.unallocatedCents })
    .from(payments)
    .where(
      and(
        eq(payments.accountCustomerId, customerId),
        eq(payments.status, 'CONFIRMED'),
        isNull(payments.reversedAt),
        gt(payments.unallocatedCents, 0),
      ),
    )
    .orderBy(asc(sql`coalesce(${payments.paidAt}, ${payments.createdAt})`), asc(payments.id));
}

/** What the account owes (cents): open invoices less money not yet on one; negative when in credit. */
export async function balanceCents(db: DbOrTx, customerId: number): Promise<number> {
  const [row] = await rows<{ balance: string | null }>(
    db,
    sql`
    select
      (select coalesce(sum(total_cents - credited_cents - allocated_cents), 0) from receivables
        where customer_id = ${customerId})
      - (select coalesce(sum(unallocated_cents), 0) from payments
        where account_customer_id = ${customerId} and status = 'CONFIRMED' and reversed_at is null)
      as balance`,
  );
  return Number(row?.balance ?? 0);
}

/**
 * Loads of the customer's orders on terms that are scheduled or on the road and not yet invoiced, at
 * their price (per-truck price × tonnes / 20, rounded once, as the load's invoice will be).
 */
export async function scheduledCents(db: DbOrTx, customerId: number): Promise<number> {
  const [row] = await db
    .select({
      cents: sql<string>`coalesce(sum(round(${orders.perTruckCents} * ${assignments.tonnes} / 20.0)), 0)`,
    })
    .from(assignments)
    .innerJoin(orders, eq(orders.id, assignments.orderId))
    .where(
      and(
        eq(orders.customerId, customerId),
        eq(orders.onTerms, true),
        inArray(assignments.status, [...OPEN_LOAD_STATUSES]),
      ),
    );
  return Number(row?.cents ?? 0);
}

export async function lastPaymentAt(db: DbOrTx, customerId: number): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<Date | null>`max(coalesce(${payments.paidAt}, ${payments.createdAt}))` })
    .from(payments)
    .where(
      and(
        eq(payments.accountCustomerId, customerId),
        eq(payments.status, 'CONFIRMED'),
        isNull(payments.reversedAt),
      ),
    );
  return row?.at ? new Date(row.at) : null;
}

// ---------------------------------------------------------------------------------------------------
// Statements and the receivables view

/** Every entry of the account's ledger up to `until` (exclusive), oldest first. */
export async function ledger(db: DbOrTx, customerId: number, until: Date) {
  const sales = await db
    .select({
      id: invoices.id,
      number: invoices.number,
      at: invoices.issuedAt,
      cents: invoices.totalCents,
      orderId: invoices.orderId,
      dueDate: receivables.dueDate,
    })
    .from(receivables)
    .innerJoin(invoices, eq(invoices.id, receivables.invoiceId))
    .where(
      and(
        eq(receivables.customerId, customerId),
        sql`${invoices.issuedAt} < ${until.toISOString()}::timestamptz`,
      ),
    );
  const credits = await db
    .select({
      id: invoices.id,
      number: invoices.number,
      at: invoices.issuedAt,
      cents: invoices.totalCents,
      orderId: invoices.orderId,
    })
    .from(invoices)
    .innerJoin(receivables, eq(receivables.invoiceId, invoices.originalId))
    .where(
      and(
        eq(receivables.customerId, customerId),
        eq(invoices.kind, 'R'),
        sql`${invoices.issuedAt} < ${until.toISOString()}::timestamptz`,
      ),
    );
  const paid = await db
    .select({
      id: payments.id,
      reference: payments.reference,
      at: sql<Date>`coalesce(${payments.paidAt}, ${payments.createdAt})`,
      cents: payments.amountCents,
      orderId: payments.orderId,
      reversedAt: payments.reversedAt,
    })
    .from(payments)
    .where(
      and(
        eq(payments.accountCustomerId, customerId),
        eq(payments.status, 'CONFIRMED'),
        sql`coalesce(${payments.paidAt}, ${payments.createdAt}) < ${until.toISOString()}::timestamptz`,
      ),
    );
  return { sales, credits, paid };
}

/** Every account with what its invoices hold open (for the receivables view and the reminders). */
export function accountsWithOpen(db: DbOrTx) {
  return db
    .select({
      customerId: customerAccounts.customerId,
      name: users.name,
      creditLimitCents: customerAccounts.creditLimitCents,
      termsDays: customerAccounts.termsDays,
      overdueNotifiedOn: customerAccounts.overdueNotifiedOn,
    })
    .from(customerAccounts)
    .innerJoin(users, eq(users.id, customerAccounts.customerId))
    .orderBy(asc(users.name), asc(customerAccounts.customerId));
}

export async function setOverdueNotified(tx: DbOrTx, customerId: number, day: string) {
  await tx
    .update(customerAccounts)
    .set({ overdueNotifiedOn: day })
    .where(eq(customerAccounts.customerId, customerId));
}

/** A payment as the account's history lists it, with what it paid. */
export async function accountPayment(db: DbOrTx, paymentId: number) {
  const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId));
  if (!payment) return undefined;
  const parts = await db
    .select({
      invoiceId: accountAllocations.invoiceId,
      cents: accountAllocations.cents,
      number: invoices.number,
    })
    .from(accountAllocations)
    .innerJoin(invoices, eq(invoices.id, accountAllocations.invoiceId))
    .where(and(eq(accountAllocations.paymentId, paymentId), isNull(accountAllocations.releasedAt)))
    .orderBy(asc(accountAllocations.id));
  return { payment, parts };
}

export async function lockAccountPayment(tx: DbOrTx, paymentId: number) {
  const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
  return row;
}

export async function paymentByAccountReference(tx: DbOrTx, customerId: number, reference: string) {
  const [row] = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.accountCustomerId, customerId),
        isNull(payments.orderId),
        sql`lower(${payments.reference}) = lower(${reference})`,
      ),
    )
    .orderBy(desc(payments.id))
    .limit(1);
  return row;
}

/**
 * What each invoice of the account held open at `until`: its total less the credit notes issued before
 * then and the payments standing on it then (made before, not yet released). A released part keeps the
 * time it was made, so a past day reads as it was.
 */
export async function openAt(db: DbOrTx, customerId: number, until: Date) {
  const found = await rows<{ due_date: string; open_cents: string }>(
    db,
    sql`select r.due_date::text as due_date,
      r.total_cents
        - coalesce((select sum(c.total_cents) from invoices c
            where c.original_id = r.invoice_id and c.kind = 'R' and c.issued_at < ${until.toISOString()}::timestamptz), 0)
        - coalesce((select sum(a.cents) from account_allocations a
            where a.invoice_id = r.invoice_id and a.at < ${until.toISOString()}::timestamptz
              and (a.released_at is null or a.released_at >= ${until.toISOString()}::timestamptz)), 0) as open_cents
      from receivables r
      where r.customer_id = ${customerId} and r.issued_at < ${until.toISOString()}::timestamptz`,
  );
  return found.map((r) => ({ dueDate: r.due_date, openCents: Number(r.open_cents) }));
}

export async function hasLoadSale(db: DbOrTx, assignmentId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.assignmentId, assignmentId), eq(invoices.kind, 'S'), eq(invoices.source, 'load')))
    .limit(1);
  return Boolean(row);
}

/**
 * Accounts with an open invoice that went past due since the daily check last told ops about the account
 * (due before `today`, and on or after the day it last told): the ones to tell about today.
 */
export async function accountsNewlyOverdue(db: DbOrTx, today: string): Promise<number[]> {
  const found = await rows<{ customer_id: number }>(
    db,
    sql`select distinct a.customer_id from customer_accounts a
      join receivables r on r.customer_id = a.customer_id
      where r.total_cents > r.credited_cents + r.allocated_cents
        and r.due_date < ${today}::date
        and (a.overdue_notified_on is null or r.due_date >= a.overdue_notified_on)
        and a.overdue_notified_on is distinct from ${today}::date
      order by a.customer_id`,
  );
  return found.map((r) => Number(r.customer_id));
}

/** The accounts the daily check told ops about on `day`, with what they have overdue on that day. */
export async function accountsNotifiedOn(db: DbOrTx, day: string) {
  const found = await rows<{ customer_id: number; name: string; overdue_cents: string }>(
    db,
    sql`select a.customer_id, u.name,
        coalesce(sum(r.total_cents - r.credited_cents - r.allocated_cents)
          filter (where r.due_date < ${day}::date), 0) as overdue_cents
      from customer_accounts a
      join users u on u.id = a.customer_id
      left join receivables r on r.customer_id = a.customer_id
      where a.overdue_notified_on = ${day}::date
      group by a.customer_id, u.name
      order by overdue_cents desc, a.customer_id`,
  );
  return found.map((r) => ({
    customerId: Number(r.customer_id),
    name: r.name,
    overdueCents: Number(r.overdue_cents),
  }));
}
