import type { ReactElement } from 'react';
import type { PageProps } from '../../runtime/index.ts';
import { Card, CardGrid } from '../components/card.tsx';
import { FormattedDate } from '../components/date.tsx';
import { EmptyState, ListCount } from '../components/list-count.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { ArchivePagination } from '../components/pagination.tsx';
import { archiveLayout, archivePageNumber } from '../data/paging.ts';
import { plural } from '../format/numbers.ts';
import { laterTrail } from '../data/trails.ts';
import { NEWS_PAGE_SIZE } from '../queries/document.ts';
import type { NewsArchiveResult, NewsCardData, NewsIndexResult } from '../queries/news.ts';

/**
 * `/news`: the newest articles; `/news/page/:page`: the archive, numbered from the oldest article, each page
 * full (site/data/paging.ts, docs/decisions/stable-news-archive.md). Newest first on every page.
 */
export default function NewsIndexPage({ data, params }: PageProps<NewsIndexResult | NewsArchiveResult>): ReactElement {
  const page = archivePageNumber(params);
  const view = 'archive' in data ? archiveView(data, page ?? 1) : latestView(data);
  return (
    <div className="list-page">
      <PageHeader
        title="News"
        lead="Announcements, stories and results from across the institute."
        breadcrumbs={page !== null ? laterTrail('News', '/news', page) : undefined}
      />
      {view.nodes.length === 0 ? (
        <EmptyState>There is no news yet.</EmptyState>
      ) : (
        <>
          {view.count}
          <CardGrid>
            {view.nodes.map((item, i) => (
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
          <ArchivePagination base="/news" current={view.current} top={view.top} label="News pages" />
        </>
      )}
    </div>
  );
}

interface View {
  nodes: NewsCardData[];
  count: ReactElement;
  current: number;
  top: number;
}

/** `/news`: the newest articles no archive page holds, and the collection's size. */
function latestView({ newsItems }: NewsIndexResult): View {
  const { newest, pages } = archiveLayout(newsItems.totalCount, NEWS_PAGE_SIZE);
  const nodes = newsItems.nodes.slice(0, newest);
  return {
    nodes,
    count: <ListCount shown={nodes.length} total={newsItems.totalCount} noun="article" />,
    current: pages + 1,
    top: pages + 1,
  };
}

/** An archive page: its articles and the days they span; not the collection's size, which would change the page with every new article. */
function archiveView({ newsItems, archive }: NewsArchiveResult, page: number): View {
  const { nodes } = newsItems;
  const count = (
    <p className="list-count">
      {`${plural(nodes.length, 'article')}, from `}
      <FormattedDate value={nodes.at(-1)?.date ?? ''} />
      {' to '}
      <FormattedDate value={nodes[0]?.date ?? ''} />.
    </p>
  );
  return { nodes, count, current: page, top: page + archive.newer + 1 };
}
