import type { ReactElement } from 'react';
import type { PageProps } from '../../runtime/index.ts';
import { CardGrid } from '../components/card.tsx';
import { EmptyState, ListCount } from '../components/list-count.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { Pagination } from '../components/pagination.tsx';
import { ProjectCard } from '../components/project-card.tsx';
import { pageCount, pageNumber } from '../data/paging.ts';
import { listTrail } from '../data/trails.ts';
import { LIST_PAGE_SIZE } from '../queries/document.ts';
import type { ResearchIndexResult } from '../queries/research.ts';

/** `/research` and its later pages: research projects, most recently started first (the API's order). */
export default function ResearchIndexPage({ data, params }: PageProps<ResearchIndexResult>): ReactElement {
  const { nodes, totalCount } = data.researchProjects;
  const page = pageNumber(params);
  return (
    <div className="list-page">
      <PageHeader
        title="Research"
        lead="Projects in which the institute's researchers and artists work with partners at home and abroad."
        breadcrumbs={page > 1 ? listTrail('Research', '/research', page) : undefined}
      />
      {nodes.length === 0 ? (
        <EmptyState>No research projects are listed yet.</EmptyState>
      ) : (
        <>
          <ListCount shown={nodes.length} total={totalCount} noun="project" first={(page - 1) * LIST_PAGE_SIZE + 1} />
          <CardGrid>
            {nodes.map((project, i) => (
              <ProjectCard key={project.id} project={project} eager={i === 0} />
            ))}
          </CardGrid>
          <Pagination base="/research" page={page} pageCount={pageCount(totalCount, LIST_PAGE_SIZE)} label="Research pages" />
        </>
      )}
    </div>
  );
}
