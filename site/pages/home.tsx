import type { ReactElement, ReactNode } from 'react';
import { Link, type PageProps } from '../../runtime/index.ts';
import { Card, CardGrid } from '../components/card.tsx';
import { FormattedDate } from '../components/date.tsx';
import { Paragraphs } from '../components/editorial.tsx';
import { EventList } from '../components/event-list.tsx';
import { ProjectCard } from '../components/project-card.tsx';
import { PublicationList } from '../components/publication-list.tsx';
import type { HomeResult } from '../queries/home.ts';

/** `/`: the institute's intro, then one band per section with what the backend features. */
export default function HomePage({ data }: PageProps<HomeResult>): ReactElement {
  const { home } = data;
  return (
    <div className="home">
      <section className="home__intro" aria-labelledby="home-title">
        <h1 id="home-title" className="home__title">
          {home.title}
        </h1>
        <Paragraphs text={home.intro} className="home__lead" />
      </section>

      <Band id="home-news" title="News" href="/news" more="All news" hidden={home.featuredNews.length === 0}>
        <CardGrid>
          {home.featuredNews.map((item) => (
            <Card
              key={item.id}
              href={`/news/${item.slug}`}
              title={item.title}
              image={item.image}
              headingLevel={3}
              meta={<FormattedDate value={item.date} />}
            >
              {item.summary}
            </Card>
          ))}
        </CardGrid>
      </Band>

      <Band id="home-events" title="Upcoming events" href="/events" more="All events" hidden={home.upcomingEvents.length === 0}>
        <EventList events={home.upcomingEvents} />
      </Band>

      <Band
        id="home-publications"
        title="Latest publications"
        href="/publications"
        more="All publications"
        hidden={home.latestPublications.length === 0}
      >
        <PublicationList publications={home.latestPublications} />
      </Band>

      <Band id="home-research" title="Research" href="/research" more="All research projects" hidden={home.researchHighlights.length === 0}>
        <CardGrid>
          {home.researchHighlights.map((project) => (
            <ProjectCard key={project.id} project={project} headingLevel={3} />
          ))}
        </CardGrid>
      </Band>
    </div>
  );
}

interface BandProps {
  id: string;
  title: string;
  href: string;
  more: string;
  /** An empty band would be a heading with nothing under it. */
  hidden: boolean;
  children: ReactNode;
}

function Band({ id, title, href, more, hidden, children }: BandProps): ReactElement | null {
  if (hidden) return null;
  return (
    <section className="band" aria-labelledby={id}>
      <div className="band__head">
        <h2 id={id} className="band__title">
          {title}
        </h2>
        <Link href={href} className="band__more">
          {more}
        </Link>
      </div>
      {children}
    </section>
  );
}
