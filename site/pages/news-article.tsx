import type { ReactElement } from 'react';
import type { PageProps } from '../../runtime/index.ts';
import { Card, CardGrid } from '../components/card.tsx';
import { FormattedDate } from '../components/date.tsx';
import { Picture } from '../components/image.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { RichText } from '../components/rich-text.tsx';
import { requireItem } from '../data/require-item.ts';
import { NEWS_CRUMB } from '../data/trails.ts';
import { RELATED_NEWS_SIZE, type NewsArticleResult } from '../queries/news.ts';

/** `/news/:slug`: one article, its tags, and related articles. */
export default function NewsArticlePage({ data }: PageProps<NewsArticleResult>): ReactElement {
  const article = requireItem(data.newsItem, 'The news article');
  // The build picks related articles by tag; the query alone returns the newest, which may include this one.
  const related = (data.related?.nodes ?? []).filter((item) => item.id !== article.id).slice(0, RELATED_NEWS_SIZE);
  return (
    <article className="article">
      <PageHeader
        title={article.title}
        kicker={<FormattedDate value={article.date} />}
        lead={article.summary}
        breadcrumbs={[NEWS_CRUMB, { label: article.title }]}
      />
      {article.image ? (
        <figure className="article__figure">
          <Picture image={article.image} slot="hero" className="article__image" eager />
        </figure>
      ) : null}
      <RichText html={article.body} className="article__body" />
      {article.tags.length > 0 ? (
        <footer className="article__footer">
          <h2 className="visually-hidden">Tags</h2>
          <ul className="tag-list">
            {article.tags.map((tag) => (
              <li key={tag} className="tag">
                {tag}
              </li>
            ))}
          </ul>
        </footer>
      ) : null}
      {related.length > 0 ? (
        <aside className="related related--news" aria-labelledby="related-title">
          <h2 id="related-title">Related news</h2>
          <CardGrid>
            {related.map((item) => (
              <Card
                key={item.id}
                href={`/news/${item.slug}`}
                title={item.title}
                image={item.image}
                headingLevel={3}
                meta={<FormattedDate value={item.date} />}
              >
                {item.summary}
              </Card>
            ))}
          </CardGrid>
        </aside>
      ) : null}
    </article>
  );
}
