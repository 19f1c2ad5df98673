import type { ReactElement } from 'react';
import { useSite, type PageProps } from '../../runtime/index.ts';
import { CategoryNav } from '../components/category-nav.tsx';
import { EventTimeline } from '../components/event-timeline.tsx';
import { EmptyState, ListCount } from '../components/list-count.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { Pagination } from '../components/pagination.tsx';
import { eventsPageCount, eventsPageStart, splitTimeline } from '../data/event-timeline.ts';
import { pageNumber } from '../data/paging.ts';
import { listTrail } from '../data/trails.ts';
import { LIST_PAGE_SIZE } from '../queries/document.ts';
import type { EventsPageResult } from '../queries/events.ts';
import type { SiteQueryResult } from '../queries/site.ts';

/** `/events/page/:page`: the events page 1 has no room for: later upcoming ones, then the past, most recent first. */
export default function EventsPage({ data, params }: PageProps<EventsPageResult>): ReactElement {
  const { eventCategories } = useSite<SiteQueryResult>();
  const page = pageNumber(params);
  const firstPage = data.home.upcomingEvents.length;
  const upcomingIds = new Set(data.home.upcomingEvents.map((event) => event.id));
  const { nodes, totalCount } = data.events;
  const timeline = splitTimeline(nodes, data.home.upcomingEvents[0]?.startsAt ?? null, upcomingIds);
  return (
    <div className="list-page">
      <PageHeader
        title="Events"
        lead="Lectures, concerts, workshops and open days: everyone is welcome."
        breadcrumbs={listTrail('Events', '/events', page)}
      />
      <CategoryNav label="Event categories" allHref="/events" categoryBase="/events" categories={eventCategories} />
      {nodes.length === 0 ? (
        <EmptyState>There are no more events.</EmptyState>
      ) : (
        <ListCount shown={nodes.length} total={totalCount} noun="event" first={eventsPageStart(page, firstPage, LIST_PAGE_SIZE)} />
      )}
      <EventTimeline timeline={timeline} />
      <Pagination base="/events" page={page} pageCount={eventsPageCount(totalCount, firstPage, LIST_PAGE_SIZE)} label="Event pages" />
    </div>
  );
}
