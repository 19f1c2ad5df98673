/**
 * Indexes a content set for serving: each list sorted once in its documented order, a published-only copy
 * for anonymous requests, and slug maps for single lookups. Per request only a slice or a map lookup is
 * left, which keeps the scaled content (tens of thousands of items) fast.
 */
import type {
  CategoryEntry,
  Content,
  CourseEntry,
  DocumentEntry,
  EpisodeEntry,
  EventEntry,
  HomeInfo,
  MediaSpec,
  NewsEntry,
  PageEntry,
  PersonEntry,
  ProjectEntry,
  PublicationEntry,
  SiteInfo,
  Status,
} from './content/types.ts';

/** A sorted list with a published-only view and a slug index. */
export interface Collection<T> {
  /** Every visible item in order; drafts only when `includeDrafts`. */
  list(includeDrafts: boolean): readonly T[];
  /** The item with this slug, or null when missing or a draft hidden from this request. */
  find(slug: string, includeDrafts: boolean): T | null;
}

/** The indexed content the resolvers read. */
export interface ContentStore {
  readonly site: SiteInfo;
  readonly home: HomeInfo;
  readonly news: Collection<NewsEntry>;
  readonly eventCategories: readonly CategoryEntry[];
  /** All events, soonest first. */
  readonly events: Collection<EventEntry>;
  readonly eventsByCategory: ReadonlyMap<string, Collection<EventEntry>>;
  readonly publicationCategories: readonly CategoryEntry[];
  /** All publications, year descending then title. */
  readonly publications: Collection<PublicationEntry>;
  readonly publicationsByCategory: ReadonlyMap<string, Collection<PublicationEntry>>;
  readonly courses: Collection<CourseEntry>;
  readonly projects: Collection<ProjectEntry>;
  readonly documents: Collection<DocumentEntry>;
  readonly people: Collection<PersonEntry>;
  readonly episodes: Collection<EpisodeEntry>;
  readonly pages: Collection<PageEntry>;
  readonly media: ReadonlyMap<string, MediaSpec>;
  /** The first `count` events starting at or after `nowMs`, soonest first (binary search, no scan). */
  upcomingEvents(nowMs: number, count: number, includeDrafts: boolean): readonly EventEntry[];
}

/** Sorts and indexes a content set. O(n log n) once; the content is not copied. */
export function createContentStore(content: Content): ContentStore {
  const events = createCollection(content.events, byEventStart);
  const publications = createCollection(content.publications, byPublicationOrder);
  const documentRank = new Map(content.documentCategories.map((c, i) => [c.slug, i]));
  return {
    site: content.site,
    home: content.home,
    news: createCollection(content.news, (a, b) => compareDesc(a.date, b.date) || compareText(a.slug, b.slug)),
    eventCategories: content.eventCategories,
    events,
    eventsByCategory: groupByCategory(content.eventCategories, events, byEventStart),
    publicationCategories: content.publicationCategories,
    publications,
    publicationsByCategory: groupByCategory(content.publicationCategories, publications, byPublicationOrder),
    courses: createCollection(content.courses, (a, b) => compareText(a.code, b.code)),
    projects: createCollection(content.projects, (a, b) => compareDesc(a.startDate, b.startDate) || compareText(a.slug, b.slug)),
    documents: createCollection(
      content.documents,
      (a, b) =>
        (documentRank.get(a.category.slug) ?? Infinity) - (documentRank.get(b.category.slug) ?? Infinity) ||
        compareDesc(a.publishedAt, b.publishedAt) ||
        compareText(a.slug, b.slug),
    ),
    people: createCollection(content.people, (a, b) => collator.compare(a.name, b.name) || compareText(a.slug, b.slug)),
    episodes: createCollection(content.episodes, (a, b) => b.number - a.number),
    pages: createCollection(content.pages, (a, b) => compareText(a.slug, b.slug)),
    media: content.media,
    upcomingEvents(nowMs, count, includeDrafts) {
      const list = events.list(includeDrafts);
      let low = 0;
      let high = list.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (Date.parse((list[mid] as EventEntry).startsAt) < nowMs) low = mid + 1;
        else high = mid;
      }
      return list.slice(low, low + count);
    },
  };
}

// --- internal ---

interface Listed {
  readonly slug: string;
  readonly status?: Status;
}

// One collator for every sort: ICU ordering for names with diacritics, identical on every run.
const collator = new Intl.Collator('en', { sensitivity: 'variant' });

function createCollection<T extends Listed>(items: readonly T[], compare: (a: T, b: T) => number): Collection<T> {
  const all = items.slice().sort(compare);
  const published = all.filter((item) => item.status !== 'DRAFT');
  const bySlug = new Map<string, T>();
  for (const item of all) bySlug.set(item.slug, item);
  return {
    list: (includeDrafts) => (includeDrafts ? all : published),
    find(slug, includeDrafts) {
      const item = bySlug.get(slug);
      return item && (includeDrafts || item.status !== 'DRAFT') ? item : null;
    },
  };
}

function groupByCategory<T extends Listed & { readonly category: CategoryEntry }>(
  categories: readonly CategoryEntry[],
  all: Collection<T>,
  compare: (a: T, b: T) => number,
): ReadonlyMap<string, Collection<T>> {
  const groups = new Map<string, T[]>(categories.map((c) => [c.slug, []]));
  for (const item of all.list(true)) groups.get(item.category.slug)?.push(item);
  return new Map([...groups].map(([slug, items]) => [slug, createCollection(items, compare)]));
}

function byEventStart(a: EventEntry, b: EventEntry): number {
  return Date.parse(a.startsAt) - Date.parse(b.startsAt) || compareText(a.slug, b.slug);
}

function byPublicationOrder(a: PublicationEntry, b: PublicationEntry): number {
  return b.year - a.year || collator.compare(a.title, b.title) || compareText(a.slug, b.slug);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareDesc(a: string, b: string): number {
  return compareText(b, a);
}
