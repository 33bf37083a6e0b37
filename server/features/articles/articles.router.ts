import { desc } from 'drizzle-orm';
import { articles } from '../../../drizzle/schema';
import { safeImageUrl } from '../../../shared/domain/articles';
import { ZArticle, ZArticlesListInput } from '../../../shared/schemas/articles';
import { publicProcedure, router } from '../../trpc';

/** Hosts article images may come from besides this site (ARTICLE_IMAGE_HOSTS, comma-separated). */
const IMAGE_HOSTS = (process.env.ARTICLE_IMAGE_HOSTS ?? '')
  .split(',')
  .map((h) => h.trim())
  .filter(Boolean);

export const articlesRouter = router({
  /** The latest briefings, newest first (the landing page asks for 3, the briefings page for 24). */
  list: publicProcedure
    .input(ZArticlesListInput)
    .output(ZArticle.array())
    .query(async ({ ctx, input }) => {
      const rows = await ctx.db
        .select()
        .from(articles)
        .orderBy(desc(articles.createdAt), desc(articles.id))
        .limit(input?.limit ?? 24);
      return rows.map((a) => ({
        id: a.id,
        title: a.title,
        topic: a.topic,
        summary: a.summary,
        body: a.body,
        imageUrl: safeImageUrl(a.imageUrl, IMAGE_HOSTS),
        createdAt: a.createdAt.toISOString(),
      }));
    }),
});
