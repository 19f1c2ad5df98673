import type { ReactElement } from 'react';
import type { PageProps } from '../../runtime/index.ts';
import { FormattedDate } from '../components/date.tsx';
import { Picture } from '../components/image.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { RichText } from '../components/rich-text.tsx';
import { requireItem } from '../data/require-item.ts';
import type { NewsArticleResult } from '../queries/news.ts';

/** `/news/:slug`: one article. */
export default function NewsArticlePage({ data }: PageProps<NewsArticleResult>): ReactElement {
  const article = requireItem(data.newsItem, 'The news article');
  return (
    <article className="article">
      <PageHeader
        title={article.title}
        kicker={<FormattedDate value={article.date} />}
        lead={article.summary}
        breadcrumbs={[{ label: 'News', href: '/news' }, { label: article.title }]}
      />
      {article.image ? (
        <figure className="article__figure">
          <Picture image={article.image} className="article__image" eager />
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
    </article>
  );
}
