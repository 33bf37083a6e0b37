import { listArticles } from '../../../core/articles/articles.service';
import { ZArticle, ZArticlesListInput } from '../../../shared/schemas/articles';
import { publicProcedure, router } from '../../trpc';

export const articlesRouter = router({
  /** The latest briefings, newest first (the landing page asks for 3, the briefings page for 24). */
  list: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/articles',
        summary: 'Latest daily briefings (limit ≤ 24)',
        example: { limit: '3' },
        etag: true,
        output: ZArticle.array(),
      },
    })
    .input(ZArticlesListInput)
    .query(({ ctx, input }) => listArticles(ctx.deps.database, ctx.deps.settings, input?.limit)),
});
