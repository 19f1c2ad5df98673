import type { ReactElement } from 'react';
import { useSite, type PageProps } from '../../runtime/index.ts';
import { CategoryNav } from '../components/category-nav.tsx';
import { EventTimeline } from '../components/event-timeline.tsx';
import { EmptyState, ListCount } from '../components/list-count.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { Pagination } from '../components/pagination.tsx';
import { splitTimeline } from '../data/event-timeline.ts';
import { categoryCalendarHref } from '../data/feeds.ts';
import { pageCount, pageNumber } from '../data/paging.ts';
import { requireItem } from '../data/require-item.ts';
import { EVENTS_CRUMB, listTrail } from '../data/trails.ts';
import { LIST_PAGE_SIZE } from '../queries/document.ts';
import type { EventCategoryResult } from '../queries/events.ts';
import type { SiteQueryResult } from '../queries/site.ts';

/**
 * `/events/:category` and its later pages: one category's events, upcoming first (soonest first), then
 * past (most recent first), with the category's calendar to subscribe to.
 */
export default function EventCategoryPage({ data, params }: PageProps<EventCategoryResult>): ReactElement {
  const { eventCategories } = useSite<SiteQueryResult>();
  const category = requireItem(
    eventCategories.find((c) => c.slug === params.category),
    'The event category',
  );
  const page = pageNumber(params);
  const base = `/events/${category.slug}`;
  const { nodes, totalCount } = data.events;
  const timeline = splitTimeline(nodes, data.home.upcomingEvents[0]?.startsAt ?? null);
  return (
    <div className="list-page">
      <PageHeader
        title={category.title}
        kicker="Events"
        lead={category.description}
        breadcrumbs={[EVENTS_CRUMB, ...listTrail(category.title, base, page)]}
      >
        <p className="page-header__actions">
          {/* A plain link: the runtime leaves files to the browser, which hands .ics to the calendar app. */}
          <a href={categoryCalendarHref(category.slug)} className="calendar-link">
            Subscribe to the {category.title.toLowerCase()} calendar<span className="visually-hidden"> (iCalendar file)</span>
          </a>
        </p>
      </PageHeader>
      <CategoryNav label="Event categories" allHref="/events" categoryBase="/events" categories={eventCategories} current={category.slug} />
      {nodes.length === 0 ? (
        <EmptyState>There are no events in this category yet.</EmptyState>
      ) : (
        <>
          <ListCount shown={nodes.length} total={totalCount} noun="event" first={(page - 1) * LIST_PAGE_SIZE + 1} />
          <EventTimeline timeline={timeline} showCategory={false} />
          <Pagination base={base} page={page} pageCount={pageCount(totalCount, LIST_PAGE_SIZE)} label={`${category.title} pages`} />
        </>
      )}
    </div>
  );
}
