/**
 * Addresses of the files site/outputs.build.ts writes beside the pages, shared with the pages and heads
 * that link to them. Calendar files sit next to the page of what they describe.
 */

export interface FeedLink {
  href: string;
  title: string;
  type: string;
}

const RSS = 'application/rss+xml';

export const NEWS_FEED: FeedLink = { href: '/feeds/news.xml', title: 'News (RSS)', type: RSS };
export const EVENTS_FEED: FeedLink = { href: '/feeds/events.xml', title: 'Events (RSS)', type: RSS };

/** `/events/lectures/open-day.ics`: one event, to add to a calendar. */
export function eventCalendarHref(category: string, slug: string): string {
  return `/events/${category}/${slug}.ics`;
}

/** `/events/lectures.ics`: every event of a category, to subscribe to. */
export function categoryCalendarHref(category: string): string {
  return `/events/${category}.ics`;
}
