import type { ReactElement } from 'react';
import type { PageProps } from '../../runtime/index.ts';
import { ABOUT_CRUMB, AboutNav } from '../components/about-nav.tsx';
import { CardGrid } from '../components/card.tsx';
import { ProjectCard } from '../components/project-card.tsx';
import { EditorialBody } from '../components/editorial.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { requireItem } from '../data/require-item.ts';
import type { ArtisticResearchResult } from '../queries/research.ts';

/** `/about/artistic-research`: the page's text and the research projects flagged as artistic. */
export default function AboutArtisticResearchPage({ data }: PageProps<ArtisticResearchResult>): ReactElement {
  const page = requireItem(data.page, 'The artistic research page');
  const projects = data.researchProjects.nodes.filter((project) => project.artistic);
  return (
    <article className="editorial-page">
      <PageHeader title={page.title} lead={page.summary} breadcrumbs={[ABOUT_CRUMB, { label: page.title }]} />
      <AboutNav current="/about/artistic-research" />
      <EditorialBody page={page} />
      {projects.length > 0 ? (
        <section className="related" aria-labelledby="artistic-projects-title">
          <h2 id="artistic-projects-title">Projects</h2>
          <CardGrid>
            {projects.map((project) => (
              <ProjectCard key={project.id} project={project} headingLevel={3} />
            ))}
          </CardGrid>
        </section>
      ) : null}
    </article>
  );
}
