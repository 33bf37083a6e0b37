import { useState } from 'react';
import { articleSummary, articleTopic } from '../../../shared/domain/articles';
import { formatDateTime } from '../../../shared/domain/format';
import type { TArticle } from '../../../shared/schemas/articles';
import { useLandingT } from '../../i18n/landing';

/** A briefing: image, title, topic, published time and summary; the body opens per article, as text. */
export function ArticleCard({ article, expandable = true }: { article: TArticle; expandable?: boolean }) {
  const { t, language } = useLandingT();
  const [open, setOpen] = useState(false);
  const bodyId = `article-body-${article.id}`;
  return (
    <article className="card article-card" aria-labelledby={`article-${article.id}`}>
      {article.imageUrl ? (
        <img src={article.imageUrl} alt="" className="article-card__image" loading="lazy" />
      ) : null}
      <span className="status-pill">{articleTopic(article.topic)}</span>
      <h3 id={`article-${article.id}`}>{article.title}</h3>
      <p className="muted">
        {t('articles.published', { when: formatDateTime(article.createdAt, 'medium', language) })}
      </p>
      <p>{articleSummary(article.summary, article.body)}</p>
      {expandable ? (
        article.body?.trim() ? (
          <>
            <button
              type="button"
              className="button button--small button--secondary"
              aria-expanded={open}
              aria-controls={bodyId}
              onClick={() => setOpen((o) => !o)}
            >
              {open ? t('articles.hide') : t('articles.more')}
            </button>
            {open ? (
              <div id={bodyId} className="article-card__body">
                {article.body.split(/\n{2,}/).map((para, i) => (
                  // Paragraph order is the body's own and never changes.
                  // biome-ignore lint/suspicious/noArrayIndexKey: static text split
                  <p key={i}>{para.replace(/^#+\s*/, '')}</p>
                ))}
              </div>
            ) : null}
          </>
        ) : (
          <p className="muted">{t('articles.notYet')}</p>
        )
      ) : null}
    </article>
  );
}
