import type { ReactElement } from 'react';
import type { PageProps } from '../../runtime/index.ts';
import { Card, CardGrid } from '../components/card.tsx';
import { FormattedDate } from '../components/date.tsx';
import { EmptyState, ListCount } from '../components/list-count.tsx';
import { PageHeader } from '../components/page-header.tsx';
import type { NewsIndexResult } from '../queries/news.ts';

/** `/news`: the latest articles, newest first (the API's order). */
export default function NewsIndexPage({ data }: PageProps<NewsIndexResult>): ReactElement {
  const { nodes, totalCount } = data.newsItems;
  return (
    <div className="list-page">
      <PageHeader title="News" lead="Announcements, stories and results from across the institute." />
      {nodes.length === 0 ? (
        <EmptyState>There is no news yet.</EmptyState>
      ) : (
        <>
          <ListCount shown={nodes.length} total={totalCount} noun="article" />
          <CardGrid>
            {nodes.map((item) => (
              <Card key={item.id} href={`/news/${item.slug}`} title={item.title} image={item.image} meta={<FormattedDate value={item.date} />}>
                {item.summary}
              </Card>
            ))}
          </CardGrid>
        </>
      )}
    </div>
  );
}
