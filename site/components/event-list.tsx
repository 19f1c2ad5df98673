import type { ReactElement } from 'react';
import { Link } from '../../runtime/index.ts';
import { useSite } from '../../runtime/index.ts';
import { dayAndMonth } from '../format/dates.ts';
import { timeZoneOf } from '../queries/site.ts';
import type { EventCardData } from '../queries/events.ts';
import { EventWhen } from './date.tsx';

export interface EventListProps {
  events: readonly EventCardData[];
  /** Under a section heading the items are `<h3>`; directly under the page title, `<h2>`. */
  headingLevel?: 2 | 3;
  /** Category pages leave out the category label, which would repeat on every row. */
  showCategory?: boolean;
}

/** Events as an agenda: a calendar badge, then what, when and where. */
export function EventList({ events, headingLevel = 3, showCategory = true }: EventListProps): ReactElement {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const zone = timeZoneOf(useSite());
  return (
    <ol className="event-list">
      {events.map((event) => {
        const badge = dayAndMonth(event.startsAt, zone);
        return (
          <li key={event.id} className="event-list__item">
            <span className="date-badge" aria-hidden="true">
              <span className="date-badge__day">{badge.day}</span>
              <span className="date-badge__month">{badge.month}</span>
            </span>
            <div className="event-list__body">
              <Heading className="event-list__title">
                <Link href={`/events/${event.category.slug}/${event.slug}`}>{event.title}</Link>
              </Heading>
              <p className="event-list__meta">
                <EventWhen startsAt={event.startsAt} endsAt={event.endsAt} />
                {event.location ? <span className="event-list__location">{event.location}</span> : null}
                {showCategory ? <span className="tag">{event.category.title}</span> : null}
              </p>
              {event.summary ? <p className="event-list__summary">{event.summary}</p> : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
