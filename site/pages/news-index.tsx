import type { ReactElement } from 'react';
import type { PageProps } from '../../runtime/index.ts';
import { Card, CardGrid } from '../components/card.tsx';
import { FormattedDate } from '../components/date.tsx';
import { EmptyState, ListCount } from '../components/list-count.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { Pagination } from '../components/pagination.tsx';
import { pageCount, pageNumber } from '../data/paging.ts';
import { listTrail } from '../data/trails.ts';
import { NEWS_PAGE_SIZE } from '../queries/document.ts';
import type { NewsIndexResult } from '../queries/news.ts';

/** `/news` and `/news/page/:page`: one page of articles, newest first (the API's order). */
export default function NewsIndexPage({ data, params }: PageProps<NewsIndexResult>): ReactElement {
  const { nodes, totalCount } = data.newsItems;
  const page = pageNumber(params);
  return (
    <div className="list-page">
      <PageHeader
        title="News"
        lead="Announcements, stories and results from across the institute."
        breadcrumbs={page > 1 ? listTrail('News', '/news', page) : undefined}
      />
      {nodes.length === 0 ? (
        <EmptyState>There is no news yet.</EmptyState>
      ) : (
        <>
          <ListCount shown={nodes.length} total={totalCount} noun="article" first={(page - 1) * NEWS_PAGE_SIZE + 1} />
          <CardGrid>
            {nodes.map((item, i) => (
              // The first card's image is the page's largest paint on phones: load it straight away.
              <Card
                key={item.id}
                href={`/news/${item.slug}`}
                title={item.title}
                image={item.image}
                eager={i === 0}
                meta={<FormattedDate value={item.date} />}
              >
                {item.summary}
              </Card>
            ))}
          </CardGrid>
          <Pagination base="/news" page={page} pageCount={pageCount(totalCount, NEWS_PAGE_SIZE)} label="News pages" />
        </>
      )}
    </div>
  );
}
