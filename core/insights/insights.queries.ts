import { desc } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { aiInsights, dailySummaries } from '../../drizzle/schema';

export async function latestInsight(db: DbOrTx) {
  const [row] = await db
    .select()
    .from(aiInsights)
    .orderBy(desc(aiInsights.generatedAt), desc(aiInsights.id))
    .limit(1);
  return row;
}

export async function latestDailySummary(db: DbOrTx) {
  const [row] = await db.select().from(dailySummaries).orderBy(desc(dailySummaries.forDate)).limit(1);
  return row;
}
