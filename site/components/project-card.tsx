import type { ReactElement } from 'react';
import type { ProjectCardData } from '../queries/research.ts';
import { Card } from './card.tsx';
import { Period } from './date.tsx';

/** A research project as a card: image, title, period and summary, linking to the project's page. */
export function ProjectCard({
  project,
  headingLevel,
  eager,
}: {
  project: ProjectCardData;
  headingLevel?: 2 | 3;
  eager?: boolean;
}): ReactElement {
  return (
    <Card
      href={`/research/${project.slug}`}
      title={project.title}
      image={project.image}
      headingLevel={headingLevel}
      eager={eager}
      meta={<Period startDate={project.startDate} endDate={project.endDate} />}
    >
      {project.summary}
    </Card>
  );
}
