import type { ReactElement } from 'react';
import { useSite, type PageProps } from '../../runtime/index.ts';
import { CategoryNav } from '../components/category-nav.tsx';
import { EventList } from '../components/event-list.tsx';
import { EmptyState, ListCount } from '../components/list-count.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { splitTimeline } from '../data/event-timeline.ts';
import { requireItem } from '../data/require-item.ts';
import type { EventCategoryResult } from '../queries/events.ts';
import type { SiteQueryResult } from '../queries/site.ts';

/** `/events/:category`: one category's events, upcoming first, then past. */
export default function EventCategoryPage({ data, params }: PageProps<EventCategoryResult>): ReactElement {
  const { eventCategories } = useSite<SiteQueryResult>();
  const category = requireItem(
    eventCategories.find((c) => c.slug === params.category),
    'The event category',
  );
  const { nodes, totalCount } = data.events;
  const timeline = splitTimeline(nodes, data.home.upcomingEvents[0]?.startsAt ?? null);
  return (
    <div className="list-page">
      <PageHeader title={category.title} kicker="Events" lead={category.description} breadcrumbs={[{ label: 'Events', href: '/events' }, { label: category.title }]} />
      <CategoryNav label="Event categories" allHref="/events" categoryBase="/events" categories={eventCategories} current={category.slug} />
      {nodes.length === 0 ? (
        <EmptyState>There are no events in this category yet.</EmptyState>
      ) : (
        <>
          <ListCount shown={nodes.length} total={totalCount} noun="event" />
          {timeline.upcoming.length > 0 ? (
            <section className="timeline" aria-labelledby="upcoming-title">
              <h2 id="upcoming-title" className="timeline__title">
                Upcoming
              </h2>
              <EventList events={timeline.upcoming} showCategory={false} />
            </section>
          ) : null}
          {timeline.past.length > 0 ? (
            <section className="timeline timeline--past" aria-labelledby="past-title">
              <h2 id="past-title" className="timeline__title">
                Past events
              </h2>
              <EventList events={timeline.past} showCategory={false} />
            </section>
          ) : null}
        </>
      )}
    </div>
  );
}
