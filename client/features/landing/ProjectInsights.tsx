import { Link } from 'react-router';
import { useLandingT } from '../../i18n/landing';
import { trpc } from '../../trpc';
import { ArticleCard } from '../articles/ArticleCard';

export const LANDING_ARTICLES = 3;

/** The landing page's three latest briefings; a failure to load them is only logged. */
export function ProjectInsights() {
  const { t } = useLandingT();
  const list = trpc.articles.list.useQuery({ limit: LANDING_ARTICLES }, { retry: false });
  if (list.error) console.warn('Briefings unavailable', list.error.message);
  if (!list.data || list.data.length === 0) return null;
  return (
    <section aria-labelledby="insights-heading">
      <h2 id="insights-heading">{t('landing.insights')}</h2>
      <div className="article-grid">
        {list.data.map((a) => (
          <ArticleCard key={a.id} article={a} expandable={false} />
        ))}
      </div>
      <Link to="/articles">{t('landing.allBriefings')}</Link>
    </section>
  );
}
