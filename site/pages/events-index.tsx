import type { ReactElement } from 'react';
import { Link, useSite, type PageProps } from '../../runtime/index.ts';
import { CategoryNav } from '../components/category-nav.tsx';
import { EventList } from '../components/event-list.tsx';
import { EmptyState } from '../components/list-count.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { Pagination } from '../components/pagination.tsx';
import { eventsPageCount } from '../data/event-timeline.ts';
import { pageHref } from '../data/paging.ts';
import { LIST_PAGE_SIZE } from '../queries/document.ts';
import type { EventsIndexResult } from '../queries/events.ts';
import type { SiteQueryResult } from '../queries/site.ts';

/**
 * `/events`: what is coming up, as the backend lists it, with links to each category's programme. Past
 * events follow on the later pages (`/events/page/:page`, pages/events-page.tsx), most recent first.
 */
export default function EventsIndexPage({ data }: PageProps<EventsIndexResult>): ReactElement {
  const { eventCategories } = useSite<SiteQueryResult>();
  const upcoming = data.home.upcomingEvents;
  const pages = eventsPageCount(data.events.totalCount, upcoming.length, LIST_PAGE_SIZE);
  // A full first page may leave upcoming events for page 2; otherwise page 2 starts with the past.
  const more = upcoming.length < LIST_PAGE_SIZE ? 'Past events' : 'More events';
  return (
    <div className="list-page">
      <PageHeader title="Events" lead="Lectures, concerts, workshops and open days: everyone is welcome." />
      <CategoryNav label="Event categories" allHref="/events" categoryBase="/events" categories={eventCategories} />
      <section className="timeline" aria-labelledby="upcoming-title">
        <h2 id="upcoming-title" className="timeline__title">
          Upcoming
        </h2>
        {upcoming.length > 0 ? <EventList events={upcoming} /> : <EmptyState>No events are scheduled at the moment.</EmptyState>}
      </section>
      {pages > 1 ? (
        <p className="timeline__more">
          <Link href={pageHref('/events', 2)} className="button button--quiet">
            {more}
          </Link>
        </p>
      ) : null}
      <Pagination base="/events" page={1} pageCount={pages} label="Event pages" />
    </div>
  );
}
