import type { Database } from '../../drizzle/db';
import { safeImageUrl } from '../../shared/domain/articles';
import type { TArticle } from '../../shared/schemas/articles';
import type { Settings } from '../../shared/settings';
import { tableCache } from '../common/table-cache';
import * as q from './articles.queries';

/** The most a caller may ask for (ZArticlesListInput): the cache holds this many. */
const MAX_LIMIT = 24;

type Rows = Awaited<ReturnType<typeof q.latestArticles>>;

const answers = new WeakMap<
  Rows,
  { settings: Pick<Settings, 'articleImageHosts'>; byLimit: Map<number, TArticle[]> }
>();

/**
 * The latest public briefings; an image URL is kept only when it is safe and from an allowed host. The
 * newest 24 stay in memory until the articles table changes (a NOTIFY from its trigger: the morning run
 * writes them from the worker) or for a few seconds at most.
 */
export async function listArticles(
  database: Database,
  settings: Pick<Settings, 'articleImageHosts'>,
  limit = MAX_LIMIT,
): Promise<TArticle[]> {
  const rows = await tableCache(database, 'articles', 'latest-articles', (db) =>
    q.latestArticles(db, MAX_LIMIT),
  ).get();
  let memo = answers.get(rows);
  if (!memo || memo.settings !== settings) {
    memo = { settings, byLimit: new Map() };
    answers.set(rows, memo);
  }
  let answer = memo.byLimit.get(limit);
  if (!answer) {
    answer = rows.slice(0, limit).map((a) => ({
      id: a.id,
      title: a.title,
      topic: a.topic,
      summary: a.summary,
      body: a.body,
      imageUrl: safeImageUrl(a.imageUrl, settings.articleImageHosts),
      createdAt: a.createdAt.toISOString(),
    }));
    memo.byLimit.set(limit, answer);
  }
  return answer;
}
