import type { RouteDataContext, RouteEntry } from '../../runtime/shared/route-data.ts';
import { archiveOrder } from '../data/event-timeline.ts';
import { CARD_BATCH_SIZE, LIST_PAGE_SIZE } from '../queries/document.ts';
import {
  EVENT_CARDS_QUERY,
  EVENT_CATEGORIES_QUERY,
  UPCOMING_EVENTS_QUERY,
  type EventCardData,
  type EventCardsResult,
  type EventCategoriesResult,
  type EventCategoryResult,
  type EventsPageResult,
  type UpcomingEventsResult,
  type UpcomingRefs,
} from '../queries/events.ts';
import { chunk, entry } from './entry.ts';
import { collectAll } from './paginate.ts';

/**
 * The pages of the event lists, cut by the build in archive order (upcoming soonest first, then past most
 * recent first; see site/queries/events.ts), which the API cannot sort by. The whole list is walked once
 * per build and shared by the three routes that need it.
 */

export interface EventLists {
  events: EventCardData[];
  /** The backend's upcoming events as page 1 of /events shows them. */
  upcoming: UpcomingRefs['upcomingEvents'];
  categories: string[];
}

/** Pages 2… of /events: every event that page 1 (the backend's upcoming list) does not show. */
export function eventsArchivePages({ events, upcoming }: EventLists, size = LIST_PAGE_SIZE): EventsPageResult[] {
  const onFirstPage = new Set(upcoming.map((event) => event.id));
  const rest = archiveOrder(
    events.filter((event) => !onFirstPage.has(event.id)),
    upcoming[0]?.startsAt ?? null,
  );
  if (rest.length === 0) return [];
  return chunk(rest, size).map((nodes) => ({ home: { upcomingEvents: upcoming }, events: { nodes, totalCount: events.length } }));
}

/** Every page of one category's list, page 1 first. */
export function categoryPages({ events, upcoming }: EventLists, category: string, size = LIST_PAGE_SIZE): EventCategoryResult[] {
  const pivot = upcoming[0]?.startsAt ?? null;
  const inCategory = events.filter((event) => event.category.slug === category);
  const ordered = archiveOrder(inCategory, pivot);
  // The same shape EVENT_CATEGORY_QUERY returns: only the soonest upcoming event, for the split.
  return chunk(ordered, size).map((nodes) => ({
    home: { upcomingEvents: upcoming.slice(0, 1) },
    events: { nodes, totalCount: inCategory.length },
  }));
}

export async function* eventsPageEntries(ctx: RouteDataContext): AsyncGenerator<RouteEntry> {
  const pages = eventsArchivePages(await eventLists(ctx));
  for (const [i, data] of pages.entries()) yield entry<EventsPageResult>({ page: String(i + 2) }, data);
}

export async function* eventCategoryEntries(ctx: RouteDataContext): AsyncGenerator<RouteEntry> {
  const lists = await eventLists(ctx);
  for (const category of lists.categories) yield entry<EventCategoryResult>({ category }, categoryPages(lists, category)[0]);
}

export async function* eventCategoryPageEntries(ctx: RouteDataContext): AsyncGenerator<RouteEntry> {
  const lists = await eventLists(ctx);
  for (const category of lists.categories) {
    const pages = categoryPages(lists, category);
    for (let i = 1; i < pages.length; i++) yield entry<EventCategoryResult>({ category, page: String(i + 1) }, pages[i]);
  }
}

// --- internal ---

// One walk per build: the crawl gives each route a context of its own, with the build's key.
const cache = new WeakMap<object, Promise<EventLists>>();

function eventLists(ctx: RouteDataContext): Promise<EventLists> {
  const key = ctx.buildKey ?? ctx;
  let lists = cache.get(key);
  if (!lists) {
    lists = loadEventLists(ctx);
    cache.set(key, lists);
  }
  return lists;
}

async function loadEventLists(ctx: RouteDataContext): Promise<EventLists> {
  const [events, upcoming, categories] = await Promise.all([
    collectAll(ctx, { document: EVENT_CARDS_QUERY, select: (r: EventCardsResult) => r.events, batchSize: CARD_BATCH_SIZE }),
    ctx.request<UpcomingEventsResult>(UPCOMING_EVENTS_QUERY),
    ctx.request<EventCategoriesResult>(EVENT_CATEGORIES_QUERY),
  ]);
  return { events, upcoming: upcoming.home.upcomingEvents, categories: categories.eventCategories.map((c) => c.slug) };
}
