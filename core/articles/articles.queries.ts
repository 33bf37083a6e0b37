import { desc } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { articles } from '../../drizzle/schema';

/** The newest briefings first. */
export function latestArticles(db: DbOrTx, limit: number) {
  return db.select().from(articles).orderBy(desc(articles.createdAt), desc(articles.id)).limit(limit);
}
