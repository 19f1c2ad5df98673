import type { ReactElement } from 'react';
import { useSite, type PageProps } from '../../runtime/index.ts';
import { CategoryNav } from '../components/category-nav.tsx';
import { EmptyState, ListCount } from '../components/list-count.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { PublicationsByYear } from '../components/publication-list.tsx';
import type { PublicationsIndexResult } from '../queries/publications.ts';
import type { SiteQueryResult } from '../queries/site.ts';

/** `/publications`: the newest publications by year, with links to each category. */
export default function PublicationsIndexPage({ data }: PageProps<PublicationsIndexResult>): ReactElement {
  const { publicationCategories } = useSite<SiteQueryResult>();
  const { nodes, totalCount } = data.publications;
  return (
    <div className="list-page">
      <PageHeader title="Publications" lead="Books, articles, reports and recordings by the institute's researchers." />
      {/* Category pages live under the singular /publication prefix (SPEC.md section 2). */}
      <CategoryNav label="Publication categories" allHref="/publications" categoryBase="/publication" categories={publicationCategories} />
      {nodes.length === 0 ? (
        <EmptyState>Nothing has been published yet.</EmptyState>
      ) : (
        <>
          <ListCount shown={nodes.length} total={totalCount} noun="publication" />
          <PublicationsByYear publications={nodes} />
        </>
      )}
    </div>
  );
}
