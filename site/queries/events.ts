import { CATEGORY_FRAGMENT, IMAGE_FRAGMENT, type CategoryData, type ImageData, type ContentStatus } from './common.ts';
import {
  composeDocument,
  defineFragment,
  ENTRY_BATCH_SIZE,
  LIST_PAGE_SIZE,
  CARD_BATCH_SIZE,
  type ConnectionPage,
  type ItemField,
  type ListPage,
} from './document.ts';

export type EventCardData = {
  /** Selected so the build can leave drafts out (cli/content/drafts.ts). */
  status?: ContentStatus;
  id: string;
  slug: string;
  title: string;
  updatedAt: string;
  startsAt: string;
  endsAt: string;
  location: string;
  summary: string;
  category: CategoryData;
};

export const EVENT_CARD_FRAGMENT = defineFragment(
  `
fragment EventCardFields on Event {
  status
  id
  slug
  title
  updatedAt
  startsAt
  endsAt
  location
  summary
  category {
    ...CategoryFields
  }
}`,
  [CATEGORY_FRAGMENT],
);

export type EventDetailData = EventCardData & {
  registrationUrl: string | null;
  body: string;
  image: ImageData | null;
};

export const EVENT_DETAIL_FRAGMENT = defineFragment(
  `
fragment EventDetailFields on Event {
  ...EventCardFields
  registrationUrl
  body
  image {
    ...ImageFields
  }
}`,
  [EVENT_CARD_FRAGMENT, IMAGE_FRAGMENT],
);

/**
 * The API has no "upcoming" filter on `events`, and a prerendered page must not read the clock while it
 * renders (server and browser would disagree). The backend's own notion of "now" is exposed through
 * `home.upcomingEvents`, so the pages use it: its soonest start is the line between past and upcoming.
 *
 * Event lists are paged in archive order, upcoming events first (soonest first) and then past ones (most
 * recent first), which the API cannot sort by; so the build walks the whole list and cuts the pages itself
 * (site/build/event-pages.ts). Page 1 of /events is the backend's upcoming list, straight from this query.
 */
export const EVENTS_INDEX_QUERY = composeDocument(
  `
query EventsIndex {
  home {
    upcomingEvents(first: ${LIST_PAGE_SIZE}) {
      ...EventCardFields
    }
  }
  events(first: 0) {
    totalCount
  }
}`,
  [EVENT_CARD_FRAGMENT],
);

export type EventsIndexResult = {
  home: { upcomingEvents: EventCardData[] };
  events: { totalCount: number };
};

/** The upcoming events of page 1 of /events, by id: later pages leave them out and split at the first one. */
export type UpcomingRefs = { upcomingEvents: { id: string; startsAt: string }[] };

/**
 * /events/page/:page: a later page of /events. Its events are cut by the build from the whole list in
 * archive order; run on its own, the query returns them in the API's order, which the page sorts all the same.
 */
export const EVENTS_PAGE_QUERY = composeDocument(
  `
query EventsPage($first: Int = ${LIST_PAGE_SIZE}, $after: String) {
  home {
    upcomingEvents(first: ${LIST_PAGE_SIZE}) {
      id
      startsAt
    }
  }
  events(first: $first, after: $after) {
    totalCount
    nodes {
      ...EventCardFields
    }
  }
}`,
  [EVENT_CARD_FRAGMENT],
);

export type EventsPageResult = { home: UpcomingRefs; events: ListPage<EventCardData> };

/** /events/:category and /events/:category/page/:page; the category's title comes from the site data. */
export const EVENT_CATEGORY_QUERY = composeDocument(
  `
query EventCategory($category: String!, $first: Int = ${LIST_PAGE_SIZE}, $after: String) {
  home {
    upcomingEvents(first: 1) {
      id
      startsAt
    }
  }
  events(category: $category, first: $first, after: $after) {
    totalCount
    nodes {
      ...EventCardFields
    }
  }
}`,
  [EVENT_CARD_FRAGMENT],
);

export type EventCategoryResult = { home: UpcomingRefs; events: ListPage<EventCardData> };

/** Every event as a list shows it, page by page: the build cuts the event list pages from it. */
export const EVENT_CARDS_QUERY = composeDocument(
  `
query EventCards($first: Int = ${CARD_BATCH_SIZE}, $after: String) {
  events(first: $first, after: $after) {
    nodes {
      ...EventCardFields
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}`,
  [EVENT_CARD_FRAGMENT],
);

export type EventCardsResult = { events: ConnectionPage<EventCardData> };

/** The backend's upcoming events of page 1 of /events, by id. */
export const UPCOMING_EVENTS_QUERY = `
query UpcomingEventRefs {
  home {
    upcomingEvents(first: ${LIST_PAGE_SIZE}) {
      id
      startsAt
    }
  }
}
`;

export type UpcomingEventsResult = { home: UpcomingRefs };

/** /events/:category/:slug */
export const EVENT_QUERY = composeDocument(
  `
query Event($category: String!, $slug: String!) {
  event(category: $category, slug: $slug) {
    ...EventDetailFields
  }
}`,
  [EVENT_DETAIL_FRAGMENT],
);

export type EventResult = { event: EventDetailData | null };

/** Every event in full, page by page: the build's source for event pages. */
export const EVENT_ENTRIES_QUERY = composeDocument(
  `
query EventEntries($first: Int = ${ENTRY_BATCH_SIZE}, $after: String) {
  events(first: $first, after: $after) {
    nodes {
      ...EventDetailFields
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}`,
  [EVENT_DETAIL_FRAGMENT],
);

export type EventEntriesResult = { events: ConnectionPage<EventDetailData> };

/** What names an event's page. */
export type EventRefData = { status?: ContentStatus; id: string; slug: string; category: { slug: string } };

/** Every event's page, page by page: a shard's list of event pages (site/build/items.ts). */
export const EVENT_REFS_QUERY = `
query EventRefs($first: Int = ${CARD_BATCH_SIZE}, $after: String) {
  events(first: $first, after: $after) {
    nodes {
      status
      id
      slug
      category {
        slug
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
`;

export type EventRefsResult = { events: ConnectionPage<EventRefData> };

/** Events in full by category and slug, many at once: a shard's source for its own event pages. */
export const EVENTS_BY_SLUG: ItemField = {
  operation: 'EventsBySlug',
  field: 'event',
  args: ['category', 'slug'],
  fragment: EVENT_DETAIL_FRAGMENT,
  perRequest: 25,
};

/** The slugs of every event category: the build's source for category pages. */
export const EVENT_CATEGORIES_QUERY = `
query EventCategorySlugs {
  eventCategories {
    slug
  }
}
`;

export type EventCategoriesResult = { eventCategories: { slug: string }[] };
