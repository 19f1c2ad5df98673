/**
 * Splitting events into upcoming and past without reading the clock during render, which would make the
 * prerendered HTML and the hydrating browser disagree. The backend decides what "upcoming" means (its
 * `home.upcomingEvents`); the soonest upcoming start is the line between the two groups.
 */

interface Timed {
  id: string;
  startsAt: string;
}

export interface Timeline<T> {
  upcoming: T[];
  /** Most recent first, as visitors browse an archive. */
  past: T[];
}

/**
 * `pivot` is the start of the soonest upcoming event, or null when nothing is upcoming (then every event
 * is past). Events the backend listed as upcoming (`upcomingIds`) always count as upcoming, so an event
 * already under way is not filed as past.
 */
export function splitTimeline<T extends Timed>(events: readonly T[], pivot: string | null, upcomingIds: ReadonlySet<string> = new Set()): Timeline<T> {
  const upcoming: T[] = [];
  const past: T[] = [];
  const line = pivot ? Date.parse(pivot) : Number.POSITIVE_INFINITY;
  for (const event of events) {
    if (upcomingIds.has(event.id) || Date.parse(event.startsAt) >= line) upcoming.push(event);
    else past.push(event);
  }
  return { upcoming, past: past.reverse() };
}
