import type { ReactElement } from 'react';
import { useSite, type PageProps } from '../../runtime/index.ts';
import { CategoryNav } from '../components/category-nav.tsx';
import { EmptyState, ListCount } from '../components/list-count.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { Pagination } from '../components/pagination.tsx';
import { PublicationsByYear } from '../components/publication-list.tsx';
import { pageCount, pageNumber } from '../data/paging.ts';
import { requireItem } from '../data/require-item.ts';
import { listTrail, PUBLICATIONS_CRUMB } from '../data/trails.ts';
import { LIST_PAGE_SIZE } from '../queries/document.ts';
import type { PublicationCategoryResult } from '../queries/publications.ts';
import type { SiteQueryResult } from '../queries/site.ts';

/** `/publication/:category` and its later pages: one category's publications by year. */
export default function PublicationCategoryPage({ data, params }: PageProps<PublicationCategoryResult>): ReactElement {
  const { publicationCategories } = useSite<SiteQueryResult>();
  const category = requireItem(
    publicationCategories.find((c) => c.slug === params.category),
    'The publication category',
  );
  const { nodes, totalCount } = data.publications;
  const page = pageNumber(params);
  const base = `/publication/${category.slug}`;
  return (
    <div className="list-page">
      <PageHeader
        title={category.title}
        kicker="Publications"
        lead={category.description}
        breadcrumbs={[PUBLICATIONS_CRUMB, ...listTrail(category.title, base, page)]}
      />
      <CategoryNav
        label="Publication categories"
        allHref="/publications"
        categoryBase="/publication"
        categories={publicationCategories}
        current={category.slug}
      />
      {nodes.length === 0 ? (
        <EmptyState>There are no publications in this category yet.</EmptyState>
      ) : (
        <>
          <ListCount shown={nodes.length} total={totalCount} noun="publication" first={(page - 1) * LIST_PAGE_SIZE + 1} />
          <PublicationsByYear publications={nodes} showCategory={false} />
          <Pagination base={base} page={page} pageCount={pageCount(totalCount, LIST_PAGE_SIZE)} label={`${category.title} pages`} />
        </>
      )}
    </div>
  );
}
