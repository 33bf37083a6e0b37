import { trpc } from '../../trpc';
import { Alert } from '../../ui/forms';
import { Page } from '../../ui/Page';
import { ArticleCard } from './ArticleCard';

export const BRIEFINGS_PAGE_SIZE = 24;

/** /articles: the daily logistics briefings. */
export function ArticlesPage() {
  const list = trpc.articles.list.useQuery({ limit: BRIEFINGS_PAGE_SIZE });
  return (
    <Page title="Daily logistics briefings" subtitle="AI-generated highlights, updated once every morning.">
      {list.isLoading ? <p className="muted">Serving today's articles…</p> : null}
      {list.error ? <Alert>Unable to load the latest briefings.</Alert> : null}
      {list.data && list.data.length === 0 ? (
        <p className="muted">
          No articles generated yet. Trigger a manual run from the admin dashboard to populate this feed.
        </p>
      ) : null}
      <div className="article-grid">
        {(list.data ?? []).map((a) => (
          <ArticleCard key={a.id} article={a} />
        ))}
      </div>
    </Page>
  );
}
