import type { ReactElement } from 'react';
import { Link, type PageProps } from '../../runtime/index.ts';
import { EventWhen } from '../components/date.tsx';
import { Picture } from '../components/image.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { RichText } from '../components/rich-text.tsx';
import { eventCalendarHref } from '../data/feeds.ts';
import { requireItem } from '../data/require-item.ts';
import { EVENTS_CRUMB } from '../data/trails.ts';
import type { EventResult } from '../queries/events.ts';

/** `/events/:category/:slug`: one event: when, where, how to register, an .ics to add it to a calendar, and the full description. */
export default function EventPage({ data }: PageProps<EventResult>): ReactElement {
  const event = requireItem(data.event, 'The event');
  const categoryHref = `/events/${event.category.slug}`;
  return (
    <article className="article article--event">
      <PageHeader
        title={event.title}
        kicker={<Link href={categoryHref}>{event.category.title}</Link>}
        lead={event.summary}
        breadcrumbs={[EVENTS_CRUMB, { label: event.category.title, href: categoryHref }, { label: event.title }]}
      />
      <section className="fact-sheet" aria-labelledby="event-facts-title">
        <h2 id="event-facts-title" className="visually-hidden">
          Practical information
        </h2>
        <dl className="details">
          <div className="details__row">
            <dt>When</dt>
            <dd>
              <EventWhen startsAt={event.startsAt} endsAt={event.endsAt} />
            </dd>
          </div>
          {event.location ? (
            <div className="details__row">
              <dt>Where</dt>
              <dd>{event.location}</dd>
            </div>
          ) : null}
        </dl>
        <p className="fact-sheet__actions">
          {event.registrationUrl ? (
            <a className="button" href={event.registrationUrl} rel="noopener noreferrer">
              Register<span className="visually-hidden"> for {event.title}</span>
            </a>
          ) : null}
          {/* A plain link: the runtime leaves files to the browser, which hands .ics to the calendar app. */}
          <a className="button button--quiet" href={eventCalendarHref(event.category.slug, event.slug)} download={`${event.slug}.ics`}>
            Add to calendar<span className="visually-hidden"> (iCalendar file)</span>
          </a>
        </p>
      </section>
      {event.image ? (
        <figure className="article__figure">
          <Picture image={event.image} slot="hero" className="article__image" eager />
        </figure>
      ) : null}
      <RichText html={event.body} className="article__body" />
    </article>
  );
}
