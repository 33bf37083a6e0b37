import { sql } from 'drizzle-orm';
import { type DbOrTx, rows } from '../../drizzle/db';
import { UNSIGNED_INVOICE_STATUSES } from '../../shared/enums';

/** Unsent outbox rows and the age of the oldest (seconds; 0 when none): the partial pending index. */
export async function outboxBacklog(db: DbOrTx) {
  const [row] = await rows<{ count: number; age: number | null }>(
    db,
    sql`select count(*)::int as count,
          extract(epoch from now() - min(created_at))::float8 as age
        from outbox where sent_at is null`,
  );
  return { count: row?.count ?? 0, ageSeconds: Math.max(0, row?.age ?? 0) };
}

/** M-Pesa callbacks stored per kind, and those not yet processed. */
export function mpesaCallbackCounts(db: DbOrTx) {
  return rows<{ kind: string; total: number; pending: number }>(
    db,
    sql`select kind, count(*)::int as total, (count(*) filter (where processed_at is null))::int as pending
        from mpesa_callbacks group by kind`,
  );
}

/** Invoices not yet signed by KRA, per status (the eTIMS delivery queue; the partial unsigned index). */
export function etimsQueue(db: DbOrTx) {
  return rows<{ status: string; count: number; age: number | null }>(
    db,
    sql`select status, count(*)::int as count, extract(epoch from now() - min(issued_at))::float8 as age
        from invoices where status in (${sql.join(
          UNSIGNED_INVOICE_STATUSES.map((s) => sql`${s}`),
          sql`, `,
        )}) group by status`,
  );
}
