import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { pricingSettings } from '../../drizzle/schema';

/** The live pricing row (one row, id 1; absent until seeded). */
export async function findPricingSettings(db: DbOrTx) {
  const [row] = await db.select().from(pricingSettings).where(eq(pricingSettings.id, 1)).limit(1);
  return row;
}
