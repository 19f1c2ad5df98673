import type { ReactElement } from 'react';
import { useSite, type PageProps } from '../../runtime/index.ts';
import { CategoryNav } from '../components/category-nav.tsx';
import { EmptyState, ListCount } from '../components/list-count.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { PublicationsByYear } from '../components/publication-list.tsx';
import { requireItem } from '../data/require-item.ts';
import type { PublicationCategoryResult } from '../queries/publications.ts';
import type { SiteQueryResult } from '../queries/site.ts';

/** `/publication/:category`: one category's publications by year. */
export default function PublicationCategoryPage({ data, params }: PageProps<PublicationCategoryResult>): ReactElement {
  const { publicationCategories } = useSite<SiteQueryResult>();
  const category = requireItem(
    publicationCategories.find((c) => c.slug === params.category),
    'The publication category',
  );
  const { nodes, totalCount } = data.publications;
  return (
    <div className="list-page">
      <PageHeader
        title={category.title}
        kicker="Publications"
        lead={category.description}
        breadcrumbs={[{ label: 'Publications', href: '/publications' }, { label: category.title }]}
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
          <ListCount shown={nodes.length} total={totalCount} noun="publication" />
          <PublicationsByYear publications={nodes} showCategory={false} />
        </>
      )}
    </div>
  );
}
