import type { ReactElement } from 'react';
import type { PageProps } from '../../runtime/index.ts';
import { Card, CardGrid } from '../components/card.tsx';
import { Period } from '../components/date.tsx';
import { EmptyState, ListCount } from '../components/list-count.tsx';
import { PageHeader } from '../components/page-header.tsx';
import type { ResearchIndexResult } from '../queries/research.ts';

/** `/research`: research projects, most recently started first (the API's order). */
export default function ResearchIndexPage({ data }: PageProps<ResearchIndexResult>): ReactElement {
  const { nodes, totalCount } = data.researchProjects;
  return (
    <div className="list-page">
      <PageHeader title="Research" lead="Projects in which the institute's researchers and artists work with partners at home and abroad." />
      {nodes.length === 0 ? (
        <EmptyState>No research projects are listed yet.</EmptyState>
      ) : (
        <>
          <ListCount shown={nodes.length} total={totalCount} noun="project" />
          <CardGrid>
            {nodes.map((project) => (
              <Card
                key={project.id}
                href={`/research/${project.slug}`}
                title={project.title}
                image={project.image}
                meta={<Period startDate={project.startDate} endDate={project.endDate} />}
              >
                {project.summary}
              </Card>
            ))}
          </CardGrid>
        </>
      )}
    </div>
  );
}
