import { raiseAlert } from '../../drizzle/outbox';
import { localDate } from '../../shared/domain/time';
import type { JobContext } from '../jobs/context';
import { accountsNewlyOverdue, setOverdueNotified } from './accounts.queries';

/**
 * The daily overdue reminder (`accounts.overdue`, 08:00 Nairobi): the accounts with an invoice that went
 * past due since the last reminder are marked with today and one `accounts.overdue` alert tells ops which
 * (Telegram through the alerts' fan-out, committed with the marks). A re-run the same day finds nothing new.
 */
export async function overdueReminder(ctx: Pick<JobContext, 'db' | 'now'>) {
  const today = localDate(ctx.now());
  return ctx.db.transaction(async (tx) => {
    const went = await accountsNewlyOverdue(tx, today);
    if (went.length === 0) return { accounts: 0 };
    for (const customerId of went) await setOverdueNotified(tx, customerId, today);
    await raiseAlert(tx, { kind: 'accounts.overdue', day: today });
    return { accounts: went.length };
  });
}
