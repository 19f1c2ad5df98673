import { CATEGORY_FRAGMENT, IMAGE_FRAGMENT, type CategoryData, type ImageData } from './common.ts';
import { composeDocument, defineFragment, ENTRY_BATCH_SIZE, LIST_PAGE_SIZE, type ConnectionPage, type ListPage } from './document.ts';

export type EventCardData = {
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
 * `home.upcomingEvents`, so the pages use it: upcoming events come from there, and its soonest start
 * is the line between past and upcoming in a category's list.
 */
export const EVENTS_INDEX_QUERY = composeDocument(
  `
query EventsIndex {
  home {
    upcomingEvents(first: ${LIST_PAGE_SIZE}) {
      ...EventCardFields
    }
  }
  events(first: ${LIST_PAGE_SIZE}) {
    totalCount
    nodes {
      ...EventCardFields
    }
  }
}`,
  [EVENT_CARD_FRAGMENT],
);

export type EventsIndexResult = {
  home: { upcomingEvents: EventCardData[] };
  events: ListPage<EventCardData>;
};

/** /events/:category; the category's title comes from the site data, which lists every category. */
export const EVENT_CATEGORY_QUERY = composeDocument(
  `
query EventCategory($category: String!) {
  home {
    upcomingEvents(first: 1) {
      id
      startsAt
    }
  }
  events(category: $category, first: ${LIST_PAGE_SIZE}) {
    totalCount
    nodes {
      ...EventCardFields
    }
  }
}`,
  [EVENT_CARD_FRAGMENT],
);

export type EventCategoryResult = {
  home: { upcomingEvents: { id: string; startsAt: string }[] };
  events: ListPage<EventCardData>;
};

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

/** The slugs of every event category: the build's source for category pages. */
export const EVENT_CATEGORIES_QUERY = `
query EventCategorySlugs {
  eventCategories {
    slug
  }
}
`;

export type EventCategoriesResult = { eventCategories: { slug: string }[] };
