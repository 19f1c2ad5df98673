import type { ReactElement } from 'react';
import { useSite, type PageProps } from '../../runtime/index.ts';
import { CategoryNav } from '../components/category-nav.tsx';
import { EventList } from '../components/event-list.tsx';
import { EmptyState } from '../components/list-count.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { splitTimeline } from '../data/event-timeline.ts';
import type { EventsIndexResult } from '../queries/events.ts';
import type { SiteQueryResult } from '../queries/site.ts';

/** `/events`: what is coming up, then earlier events, with links to each category's programme. */
export default function EventsIndexPage({ data }: PageProps<EventsIndexResult>): ReactElement {
  const { eventCategories } = useSite<SiteQueryResult>();
  const upcoming = data.home.upcomingEvents;
  const upcomingIds = new Set(upcoming.map((event) => event.id));
  // Only the past half of the general list is needed: the upcoming half is the backend's own list above.
  const { past } = splitTimeline(data.events.nodes, upcoming[0]?.startsAt ?? null, upcomingIds);
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
      {past.length > 0 ? (
        <section className="timeline timeline--past" aria-labelledby="past-title">
          <h2 id="past-title" className="timeline__title">
            Past events
          </h2>
          <EventList events={past} />
        </section>
      ) : null}
    </div>
  );
}
