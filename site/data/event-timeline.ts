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
  /** Soonest first. */
  upcoming: T[];
  /** Most recent first, as visitors browse an archive. */
  past: T[];
}

/**
 * `pivot` is the start of the soonest upcoming event, or null when nothing is upcoming (then every event
 * is past). Events the backend listed as upcoming (`upcomingIds`) always count as upcoming, so an event
 * already under way is not filed as past. Each group is sorted by start, whatever order the events came in
 * (the API's chronological order, or the build's archive order of site/build/event-pages.ts).
 */
export function splitTimeline<T extends Timed>(
  events: readonly T[],
  pivot: string | null,
  upcomingIds: ReadonlySet<string> = new Set(),
): Timeline<T> {
  const upcoming: T[] = [];
  const past: T[] = [];
  const line = pivot ? Date.parse(pivot) : Number.POSITIVE_INFINITY;
  for (const event of events) {
    if (upcomingIds.has(event.id) || Date.parse(event.startsAt) >= line) upcoming.push(event);
    else past.push(event);
  }
  // Array.prototype.sort is stable, so events starting together keep the API's order.
  upcoming.sort((a, b) => byStart(a, b));
  past.sort((a, b) => byStart(b, a));
  return { upcoming, past };
}

/**
 * The order in which a list of events is paged: what is coming up (soonest first), then the archive (most
 * recent first). So page 1 always starts with the next event, and later pages reach further back.
 */
export function archiveOrder<T extends Timed>(
  events: readonly T[],
  pivot: string | null,
  upcomingIds: ReadonlySet<string> = new Set(),
): T[] {
  const { upcoming, past } = splitTimeline(events, pivot, upcomingIds);
  return [...upcoming, ...past];
}

function byStart(a: Timed, b: Timed): number {
  return Date.parse(a.startsAt) - Date.parse(b.startsAt);
}

/**
 * Pages of /events: page 1 holds the backend's upcoming list (`firstPage` events, up to one page), later
 * pages hold `size` events each of the rest in archive order (site/build/event-pages.ts).
 */
export function eventsPageCount(total: number, firstPage: number, size: number): number {
  return 1 + Math.ceil(Math.max(0, total - firstPage) / size);
}

/** 1-based position of the first event on a page of /events. */
export function eventsPageStart(page: number, firstPage: number, size: number): number {
  return page <= 1 ? 1 : firstPage + (page - 2) * size + 1;
}
