import type { ReactElement } from 'react';
import type { PageProps } from '../../runtime/index.ts';
import { Period } from '../components/date.tsx';
import { Picture } from '../components/image.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { PeopleList } from '../components/people.tsx';
import { PublicationList } from '../components/publication-list.tsx';
import { RichText } from '../components/rich-text.tsx';
import { requireItem } from '../data/require-item.ts';
import { RESEARCH_CRUMB } from '../data/trails.ts';
import type { ResearchProjectResult } from '../queries/research.ts';

/** `/research/:slug`: one project: its period, description, team and what it has published. */
export default function ResearchProjectPage({ data }: PageProps<ResearchProjectResult>): ReactElement {
  const project = requireItem(data.researchProject, 'The research project');
  return (
    <article className="article article--project">
      <PageHeader
        title={project.title}
        kicker={<Period startDate={project.startDate} endDate={project.endDate} />}
        lead={project.summary}
        breadcrumbs={[RESEARCH_CRUMB, { label: project.title }]}
      />
      {project.image ? (
        <figure className="article__figure">
          <Picture image={project.image} slot="hero" className="article__image" eager />
        </figure>
      ) : null}
      <RichText html={project.body} className="article__body" />
      {project.people.length > 0 ? (
        <section className="related" aria-labelledby="project-team-title">
          <h2 id="project-team-title">Team</h2>
          <PeopleList people={project.people} />
        </section>
      ) : null}
      {project.publications.length > 0 ? (
        <section className="related" aria-labelledby="project-publications-title">
          <h2 id="project-publications-title">Publications</h2>
          <PublicationList publications={project.publications} />
        </section>
      ) : null}
    </article>
  );
}
