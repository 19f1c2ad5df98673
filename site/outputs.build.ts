import type { BuiltPage, BuiltPages, OutputCollector, OutputContext, OutputDefinition, OutputFile } from '../runtime/shared/route-data.ts';
import { calendarFile, renderEvent, type CalendarEvent } from './build/ical.ts';
import { keepTop } from './build/keep-top.ts';
import { renderRss, type Feed } from './build/rss.ts';
import { absolutizeHtml } from './build/xml.ts';
import { categoryCalendarHref, eventCalendarHref, EVENTS_FEED, NEWS_FEED, type FeedLink } from './data/feeds.ts';
import { formatDay, formatTime } from './format/dates.ts';
import type { EventDetailData, EventResult } from './queries/events.ts';
import type { NewsArticleData, NewsArticleResult } from './queries/news.ts';
import { categoriesOf, siteInfo, timeZoneOf } from './queries/site.ts';
import { compareText } from '../runtime/shared/compare.ts';

/**
 * Site-specific files written beside the pages, from the data of the pages the build wrote (so a feed or a
 * calendar never names a page that does not exist): RSS feeds for news and events, and iCalendar files per
 * event and per event category. Their addresses are in data/feeds.ts, which the pages link to.
 */

/** Items per feed: readers poll often, so a feed holds what is recent, not the archive. */
export const FEED_SIZE = 20;

export const outputs: readonly OutputDefinition[] = [newsFeed, eventsFeed, eventCalendars];

/** `/feeds/news.xml`: the newest articles, full text included. */
export function newsFeed(ctx: OutputContext): OutputCollector {
  // An article kept from the previous build is ranked by its date (its note) and read only if it makes the feed.
  const newest = keepTop<Ranked<NewsArticleData>>(FEED_SIZE, (a, b) => compareText(b.at, a.at));
  return {
    page(page) {
      const item = page.routeId === 'news-article' ? (page.data as NewsArticleResult).newsItem : null;
      if (!item) return null;
      newest.offer({ at: item.date, item }, page.path);
      return item.date;
    },
    kept(note, page) {
      if (page.routeId === 'news-article') newest.offer({ at: dateNote(note, page.path) }, page.path);
    },
    async files(pages) {
      const items = await inFull(newest.entries(), pages, (data) => (data as NewsArticleResult).newsItem);
      const content = renderRss({
        ...channel(ctx, 'News', '/news', NEWS_FEED),
        items: items.map((item) => ({
          title: item.title,
          link: `${ctx.baseUrl}/news/${item.slug}`,
          published: item.date,
          description: item.summary,
          html: absolutizeHtml(item.body, ctx.baseUrl),
          categories: item.tags,
        })),
      });
      return [{ file: NEWS_FEED.href.slice(1), content }];
    },
  };
}

/** `/feeds/events.xml`: the events furthest ahead first, each with when and where before its summary. */
export function eventsFeed(ctx: OutputContext): OutputCollector {
  const furthest = keepTop<Ranked<EventDetailData>>(FEED_SIZE, (a, b) => compareText(b.at, a.at));
  const zone = timeZoneOf(ctx.site);
  return {
    page(page) {
      const event = eventOf(page);
      if (!event) return null;
      furthest.offer({ at: event.startsAt, item: event }, page.path);
      return event.startsAt;
    },
    kept(note, page) {
      if (page.routeId === 'event') furthest.offer({ at: dateNote(note, page.path) }, page.path);
    },
    async files(pages) {
      const events = await inFull(furthest.entries(), pages, (data) => (data as EventResult).event);
      const content = renderRss({
        ...channel(ctx, 'Events', '/events', EVENTS_FEED),
        items: events.map((event) => ({
          title: `${event.title} (${formatDay(event.startsAt, zone)})`,
          link: `${ctx.baseUrl}/events/${event.category.slug}/${event.slug}`,
          published: event.updatedAt,
          description: `${formatDay(event.startsAt, zone)}, ${formatTime(event.startsAt, zone)}${event.location ? `, ${event.location}` : ''}. ${event.summary}`,
          html: absolutizeHtml(event.body, ctx.baseUrl),
          categories: [event.category.title],
        })),
      });
      return [{ file: EVENTS_FEED.href.slice(1), content }];
    },
  };
}

/** One .ics per event page, and one per category with all of the category's events. */
export function eventCalendars(ctx: OutputContext): OutputCollector {
  const info = siteInfo(ctx.site);
  const producer = info.name ?? 'Institute';
  const timeZone = timeZoneOf(ctx.site);
  const host = new URL(ctx.baseUrl).host;
  // What a calendar needs of each event (no body): small enough to keep for every event of a large site.
  // Its note is the calendar entry, so a page kept from the previous build needs no reading; where the
  // files go comes from the page's params, never from the note (which the build cache holds).
  const events: { category: string; file: string; path: string; event: CalendarEvent }[] = [];
  const add = (category: string, slug: string, path: string, event: CalendarEvent): void => {
    events.push({ category, file: eventCalendarHref(category, slug).slice(1), path, event });
  };
  return {
    page(page) {
      const event = eventOf(page);
      if (!event) return null;
      const entry: CalendarEvent = {
        // The backend's id is stable across builds; the host keeps it unique among every calendar a visitor has.
        uid: `${event.id}@${host}`,
        title: event.title,
        startsAt: event.startsAt,
        endsAt: event.endsAt,
        updatedAt: event.updatedAt,
        location: event.location,
        description: event.summary,
        url: `${ctx.baseUrl}/events/${event.category.slug}/${event.slug}`,
        categories: [event.category.title],
      };
      add(event.category.slug, event.slug, page.path, entry);
      return entry;
    },
    kept(note, page) {
      if (page.routeId !== 'event') return;
      if (!isCalendarEvent(note)) throw new Error(`The build state's note of ${page.path} is not a calendar entry: build with --full.`);
      // The route's params are the event's category and slug (site/build/entries.ts).
      const { category, slug } = page.params;
      if (!category || !slug) throw new Error(`The event page ${page.path} has no category or slug among its params.`);
      add(category, slug, page.path, note);
    },
    // Each file made when the build takes it, so thousands of calendars are never held at once. An event's
    // block is made once, for its own file and its category's, and taken from the last build's where the
    // event is as it was (lastEventBlocks).
    *files(): Generator<OutputFile> {
      events.sort((a, b) => compareText(a.event.startsAt, b.event.startsAt) || compareText(a.path, b.path));
      const blocks = new Map<string, string>();
      const withBlocks = events.map((entry) => {
        const key = JSON.stringify(entry.event);
        const block = blocks.get(key) ?? lastEventBlocks.get(key) ?? renderEvent(entry.event);
        blocks.set(key, block);
        return { ...entry, block };
      });
      for (const { file, event, block } of withBlocks)
        yield { file, content: calendarFile({ name: `${event.title} · ${producer}`, producer, timeZone }, [block]) };
      // Every category gets its file, an empty one too: the category page links to it either way.
      for (const category of categoriesOf(ctx.site, 'eventCategories')) {
        yield {
          file: categoryCalendarHref(category.slug).slice(1),
          content: calendarFile(
            { name: `${category.title} · ${producer}`, producer, timeZone },
            withBlocks.filter((e) => e.category === category.slug).map((e) => e.block),
          ),
        };
      }
      lastEventBlocks = blocks;
    },
  };
}

/**
 * The VEVENT blocks of the calendars last made in this process, by their event's fields: a process that
 * builds again and again (`site live`, `site dev`) makes only the blocks of events that changed. Only the
 * last build's are kept (about 1,200 blocks, 0.5 MB, at 10,000 pages); the key is the whole entry, so a
 * block is never taken for an event it was not made of, whichever build made it.
 */
let lastEventBlocks = new Map<string, string>();

// --- internal ---

/** A feed's channel fields: the site's name, description and language, the section page it mirrors, and its own address. */
function channel(ctx: OutputContext, section: string, path: string, feed: FeedLink): Omit<Feed, 'items'> {
  const info = siteInfo(ctx.site);
  return {
    title: `${info.name ?? section} · ${section}`,
    link: ctx.baseUrl + path,
    self: ctx.baseUrl + feed.href,
    description: info.description ?? '',
    language: info.language ?? 'en',
  };
}

/** Whether a note has the calendar entry's shape (a damaged build cache must not break the calendars). */
function isCalendarEvent(note: unknown): note is CalendarEvent {
  if (note === null || typeof note !== 'object') return false;
  const event = note as Record<string, unknown>;
  const texts = ['uid', 'title', 'startsAt', 'endsAt', 'updatedAt', 'location', 'description', 'url'].every(
    (field) => typeof event[field] === 'string',
  );
  return (
    texts && (event.categories === undefined || (Array.isArray(event.categories) && event.categories.every((c) => typeof c === 'string')))
  );
}

/** A feed's note of a kept page: the date it ranks it by. */
function dateNote(note: unknown, path: string): string {
  if (typeof note !== 'string') throw new Error(`The build state's note of ${path} is not a date: build with --full.`);
  return note;
}

/** A feed's candidate: what it is ranked by, and the item in full when its page was built with its data. */
interface Ranked<T> {
  at: string;
  item?: T;
}

/** The feed's items in full, in order: those of pages kept from the previous build read back. */
function inFull<T>(
  entries: readonly { item: Ranked<T>; path: string }[],
  pages: BuiltPages,
  itemOf: (data: unknown) => T | null,
): Promise<T[]> {
  return Promise.all(
    entries.map(async ({ item, path }) => {
      const full = item.item ?? itemOf(await pages.data(path));
      if (!full) throw new Error(`The page ${path} no longer holds the item the feed ranked it by.`);
      return full;
    }),
  );
}

function eventOf(page: BuiltPage): EventDetailData | null {
  return page.routeId === 'event' ? (page.data as EventResult).event : null;
}
