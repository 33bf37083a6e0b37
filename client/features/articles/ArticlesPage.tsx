import { useLandingT } from '../../i18n/landing';
import { trpc } from '../../trpc';
import { Alert } from '../../ui/forms';
import { Page } from '../../ui/Page';
import { ArticleCard } from './ArticleCard';

export const BRIEFINGS_PAGE_SIZE = 24;

/** /articles: the daily logistics briefings. */
export function ArticlesPage() {
  const { t } = useLandingT();
  const list = trpc.articles.list.useQuery({ limit: BRIEFINGS_PAGE_SIZE });
  return (
    <Page title={t('articles.title')} subtitle={t('articles.subtitle')}>
      {list.isLoading ? <p className="muted">{t('articles.loading')}</p> : null}
      {list.error ? <Alert>{t('articles.failed')}</Alert> : null}
      {list.data && list.data.length === 0 ? <p className="muted">{t('articles.empty')}</p> : null}
      <div className="article-grid">
        {(list.data ?? []).map((a) => (
          <ArticleCard key={a.id} article={a} />
        ))}
      </div>
    </Page>
  );
}
