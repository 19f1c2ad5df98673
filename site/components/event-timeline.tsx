import type { ReactElement } from 'react';
import type { Timeline } from '../data/event-timeline.ts';
import type { EventCardData } from '../queries/events.ts';
import { EventList } from './event-list.tsx';

export interface EventTimelineProps {
  timeline: Timeline<EventCardData>;
  /** Category pages leave out the category label, which would repeat on every row. */
  showCategory?: boolean;
}

/** A list page's events in two sections, upcoming then past; a section with no events is left out. */
export function EventTimeline({ timeline, showCategory = true }: EventTimelineProps): ReactElement {
  return (
    <>
      {timeline.upcoming.length > 0 ? (
        <section className="timeline" aria-labelledby="upcoming-title">
          <h2 id="upcoming-title" className="timeline__title">
            Upcoming
          </h2>
          <EventList events={timeline.upcoming} showCategory={showCategory} />
        </section>
      ) : null}
      {timeline.past.length > 0 ? (
        <section className="timeline timeline--past" aria-labelledby="past-title">
          <h2 id="past-title" className="timeline__title">
            Past events
          </h2>
          <EventList events={timeline.past} showCategory={showCategory} />
        </section>
      ) : null}
    </>
  );
}
