import type { ReactElement } from 'react';
import { useSite, type PageProps } from '../../runtime/index.ts';
import { CategoryNav } from '../components/category-nav.tsx';
import { EmptyState, ListCount } from '../components/list-count.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { Pagination } from '../components/pagination.tsx';
import { PublicationsByYear } from '../components/publication-list.tsx';
import { pageCount, pageNumber } from '../data/paging.ts';
import { listTrail } from '../data/trails.ts';
import { LIST_PAGE_SIZE } from '../queries/document.ts';
import type { PublicationsIndexResult } from '../queries/publications.ts';
import type { SiteQueryResult } from '../queries/site.ts';

/** `/publications` and its later pages: publications by year, newest first, with links to each category. */
export default function PublicationsIndexPage({ data, params }: PageProps<PublicationsIndexResult>): ReactElement {
  const { publicationCategories } = useSite<SiteQueryResult>();
  const { nodes, totalCount } = data.publications;
  const page = pageNumber(params);
  return (
    <div className="list-page">
      <PageHeader
        title="Publications"
        lead="Books, articles, reports and recordings by the institute's researchers."
        breadcrumbs={page > 1 ? listTrail('Publications', '/publications', page) : undefined}
      />
      {/* Category pages live under the singular /publication prefix (docs/decisions/route-table.md). */}
      <CategoryNav label="Publication categories" allHref="/publications" categoryBase="/publication" categories={publicationCategories} />
      {nodes.length === 0 ? (
        <EmptyState>Nothing has been published yet.</EmptyState>
      ) : (
        <>
          <ListCount shown={nodes.length} total={totalCount} noun="publication" first={(page - 1) * LIST_PAGE_SIZE + 1} />
          <PublicationsByYear publications={nodes} />
          <Pagination base="/publications" page={page} pageCount={pageCount(totalCount, LIST_PAGE_SIZE)} label="Publication pages" />
        </>
      )}
    </div>
  );
}
