import type { BuiltPage, OutputContext, OutputDefinition, OutputFile } from '../runtime/shared/route-data.ts';
import { renderCalendar, type CalendarEvent } from './build/ical.ts';
import { renderRss } from './build/rss.ts';
import { absolutizeHtml } from './build/xml.ts';
import { categoryCalendarHref, eventCalendarHref, EVENTS_FEED, NEWS_FEED } from './data/feeds.ts';
import { formatDay, formatTime } from './format/dates.ts';
import type { EventDetailData, EventResult } from './queries/events.ts';
import type { NewsArticleData, NewsArticleResult } from './queries/news.ts';
import { categoriesOf, siteInfo } from './queries/site.ts';

/**
 * Site-specific files written beside the pages, from the data of the pages the build wrote (so a feed or a
 * calendar never names a page that does not exist): RSS feeds for news and events, and iCalendar files per
 * event and per event category. Their addresses are in data/feeds.ts, which the pages link to.
 */

/** Items per feed: readers poll often, so a feed holds what is recent, not the archive. */
export const FEED_SIZE = 20;

export const outputs: readonly OutputDefinition[] = [newsFeed, eventsFeed, eventCalendars];

/** `/feeds/news.xml`: the newest articles, full text included. */
export function newsFeed(ctx: OutputContext): OutputFile[] {
  const info = siteInfo(ctx.site);
  const articles = dataOf<NewsArticleResult>(ctx.pages, 'news-article')
    .map((d) => d.newsItem)
    .filter((item): item is NewsArticleData => item !== null)
    .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0))
    .slice(0, FEED_SIZE);
  const content = renderRss({
    title: `${info.name ?? 'News'} · News`,
    link: `${ctx.baseUrl}/news`,
    self: ctx.baseUrl + NEWS_FEED.href,
    description: info.description ?? '',
    language: info.language ?? 'en',
    items: articles.map((item) => ({
      title: item.title,
      link: `${ctx.baseUrl}/news/${item.slug}`,
      published: item.date,
      description: item.summary,
      html: absolutizeHtml(item.body, ctx.baseUrl),
      categories: item.tags,
    })),
  });
  return [{ file: NEWS_FEED.href.slice(1), content }];
}

/** `/feeds/events.xml`: the events furthest ahead first, each with when and where before its summary. */
export function eventsFeed(ctx: OutputContext): OutputFile[] {
  const info = siteInfo(ctx.site);
  const events = eventsOf(ctx.pages)
    .sort((a, b) => (a.startsAt < b.startsAt ? 1 : a.startsAt > b.startsAt ? -1 : 0))
    .slice(0, FEED_SIZE);
  const content = renderRss({
    title: `${info.name ?? 'Events'} · Events`,
    link: `${ctx.baseUrl}/events`,
    self: ctx.baseUrl + EVENTS_FEED.href,
    description: info.description ?? '',
    language: info.language ?? 'en',
    items: events.map((event) => ({
      title: `${event.title} (${formatDay(event.startsAt)})`,
      link: `${ctx.baseUrl}/events/${event.category.slug}/${event.slug}`,
      published: event.updatedAt,
      description: `${formatDay(event.startsAt)}, ${formatTime(event.startsAt)}${event.location ? `, ${event.location}` : ''}. ${event.summary}`,
      html: absolutizeHtml(event.body, ctx.baseUrl),
      categories: [event.category.title],
    })),
  });
  return [{ file: EVENTS_FEED.href.slice(1), content }];
}

/** One .ics per event page, and one per category with all of the category's events. */
export function eventCalendars(ctx: OutputContext): OutputFile[] {
  const info = siteInfo(ctx.site);
  const producer = info.name ?? 'Institute';
  const host = new URL(ctx.baseUrl).host;
  const events = eventsOf(ctx.pages).sort((a, b) => (a.startsAt < b.startsAt ? -1 : a.startsAt > b.startsAt ? 1 : 0));
  const toCalendarEvent = (event: EventDetailData): CalendarEvent => ({
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
  });
  const files: OutputFile[] = events.map((event) => ({
    file: eventCalendarHref(event.category.slug, event.slug).slice(1),
    content: renderCalendar({ name: `${event.title} · ${producer}`, producer, events: [toCalendarEvent(event)] }),
  }));
  // Every category gets its file, an empty one too: the category page links to it either way.
  for (const category of categoriesOf(ctx.site, 'eventCategories')) {
    const inCategory = events.filter((event) => event.category.slug === category.slug);
    files.push({
      file: categoryCalendarHref(category.slug).slice(1),
      content: renderCalendar({ name: `${category.title} · ${producer}`, producer, events: inCategory.map(toCalendarEvent) }),
    });
  }
  return files;
}

// --- internal ---

function dataOf<T>(pages: readonly BuiltPage[], routeId: string): T[] {
  return pages.filter((page) => page.routeId === routeId).map((page) => page.data as T);
}

function eventsOf(pages: readonly BuiltPage[]): EventDetailData[] {
  return dataOf<EventResult>(pages, 'event')
    .map((d) => d.event)
    .filter((event): event is EventDetailData => event !== null);
}
