import { defineRouteData, type RouteDataDefinition, type SiteDataDefinition } from '../runtime/shared/route-data.ts';
import {
  eventEntries,
  newsArticleEntries,
  publicationCategoryEntries,
  publicationCategorySlugs,
  publicationEntries,
  researchProjectEntries,
} from './build/entries.ts';
import { eventCategoryEntries, eventCategoryPageEntries, eventsPageEntries } from './build/event-pages.ts';
import { archivePages, keysFrom, laterCategoryPages, laterPages } from './build/list-entries.ts';
import {
  coursesSearch,
  documentsSearch,
  editorialSearch,
  eventSearch,
  newsArticleSearch,
  peopleSearch,
  publicationSearch,
  researchProjectSearch,
} from './build/search-entries.ts';
import { archiveLayout } from './data/paging.ts';
import { COURSES_KEYS_QUERY, COURSES_QUERY, type CoursesResult } from './queries/courses.ts';
import { LIST_PAGE_SIZE, NEWS_PAGE_SIZE } from './queries/document.ts';
import { DOCUMENTS_KEYS_QUERY, DOCUMENTS_QUERY, type DocumentsResult } from './queries/documents.ts';
import {
  EVENT_CATEGORY_QUERY,
  EVENTS_PAGE_QUERY,
  type EventCategoryResult,
  type EventResult,
  type EventsIndexResult,
  type EventsPageResult,
} from './queries/events.ts';
import type { HomeResult } from './queries/home.ts';
import {
  NEWS_INDEX_KEYS_QUERY,
  NEWS_INDEX_QUERY,
  type NewsArchiveResult,
  type NewsArticleResult,
  type NewsIndexResult,
} from './queries/news.ts';
import type { PageData } from './queries/pages.ts';
import {
  PUBLICATION_CATEGORY_QUERY,
  PUBLICATIONS_INDEX_KEYS_QUERY,
  PUBLICATIONS_INDEX_QUERY,
  type PublicationCategoryResult,
  type PublicationResult,
  type PublicationsIndexResult,
} from './queries/publications.ts';
import {
  RESEARCH_INDEX_KEYS_QUERY,
  RESEARCH_INDEX_QUERY,
  type ResearchIndexResult,
  type ResearchProjectResult,
} from './queries/research.ts';
import { SITE_QUERY } from './queries/site.ts';
import { liveQueries } from './route-queries.ts';
import type { RouteId } from './routes.ts';
import type { LiveQuery } from '../runtime/routes.ts';

/**
 * The build-only half of the route table (docs/decisions/route-table.md): how each route of site/routes.ts gets
 * its data, keyed by route id. Never imported by browser code.
 */

/** What changed in the backend since the previous build, so an update in place asks only for what it reaches. */
export { changeFeed } from './queries/changes.ts';

/** The layout-level data every page shares; `useSite()` returns its result. */
export const siteData: SiteDataDefinition = { query: SITE_QUERY };

type EditorialResult = { page: PageData | null };

/**
 * An about route: one editorial page, which must exist for the route to be built. Its query (route-queries.ts)
 * is the shared PAGE_QUERY with its slug, or one of its own that names the page.
 */
function editorial(live: LiveQuery, search: RouteDataDefinition['search'] = editorialSearch): RouteDataDefinition {
  return {
    ...live,
    exists: (data: EditorialResult) => data.page !== null,
    lastmod: (data: EditorialResult) => data.page?.updatedAt,
    search,
  };
}

/** The newest `updatedAt` of a list: the sitemap's last modification of a list page. */
function newest(items: readonly { updatedAt: string }[]): string | undefined {
  return items.reduce<string | undefined>((max, item) => (!max || item.updatedAt > max ? item.updatedAt : max), undefined);
}

/**
 * A later page of a list (`…/page/:page`). Its data always comes with its entry, cut from a walk of the
 * list query: the cursor that would fetch it alone is opaque and never part of a URL.
 */
function laterPage<TData>(
  query: string,
  entries: RouteDataDefinition['entries'],
  nodes: (data: TData) => readonly { updatedAt: string }[],
  search?: RouteDataDefinition['search'],
): RouteDataDefinition {
  return {
    query,
    entries,
    exists: (data: TData) => nodes(data).length > 0,
    lastmod: (data: TData) => newest(nodes(data)),
    ...(search ? { search } : {}),
  };
}

const newsList = {
  document: NEWS_INDEX_QUERY,
  select: (r: NewsIndexResult) => r.newsItems,
  pageSize: NEWS_PAGE_SIZE,
  keys: keysFrom(NEWS_INDEX_KEYS_QUERY, 'newsItems'),
};
const publicationsList = {
  document: PUBLICATIONS_INDEX_QUERY,
  select: (r: PublicationsIndexResult) => r.publications,
  pageSize: LIST_PAGE_SIZE,
  keys: keysFrom(PUBLICATIONS_INDEX_KEYS_QUERY, 'publications'),
};
const publicationCategoryList = {
  document: PUBLICATION_CATEGORY_QUERY,
  select: (r: PublicationCategoryResult) => r.publications,
  pageSize: LIST_PAGE_SIZE,
};
const coursesList = {
  document: COURSES_QUERY,
  select: (r: CoursesResult) => r.courses,
  pageSize: LIST_PAGE_SIZE,
  keys: keysFrom(COURSES_KEYS_QUERY, 'courses'),
};
const researchList = {
  document: RESEARCH_INDEX_QUERY,
  select: (r: ResearchIndexResult) => r.researchProjects,
  pageSize: LIST_PAGE_SIZE,
  keys: keysFrom(RESEARCH_INDEX_KEYS_QUERY, 'researchProjects'),
};
const documentsList = {
  document: DOCUMENTS_QUERY,
  select: (r: DocumentsResult) => r.documents,
  pageSize: LIST_PAGE_SIZE,
  keys: keysFrom(DOCUMENTS_KEYS_QUERY, 'documents'),
};

// `satisfies` turns a route of site/routes.ts without data here into a type error rather than a failed build.
export const routeData = defineRouteData({
  home: { ...liveQueries.home, lastmod: (data: HomeResult) => data.home.updatedAt },

  news: {
    ...liveQueries.news,
    // The query asks for as many articles as /news may show; the payload keeps those it does show.
    select: (data: NewsIndexResult) => ({
      newsItems: {
        ...data.newsItems,
        nodes: data.newsItems.nodes.slice(0, archiveLayout(data.newsItems.totalCount, NEWS_PAGE_SIZE).newest),
      },
    }),
    lastmod: (data: NewsIndexResult) => newest(data.newsItems.nodes),
  },
  'news-page': laterPage(NEWS_INDEX_QUERY, archivePages(newsList), (data: NewsArchiveResult) => data.newsItems.nodes),
  'news-article': {
    ...liveQueries['news-article'],
    entries: newsArticleEntries,
    exists: (data: NewsArticleResult) => data.newsItem !== null,
    lastmod: (data: NewsArticleResult) => data.newsItem?.updatedAt,
    search: newsArticleSearch,
  },

  about: editorial(liveQueries.about),
  'about-people': editorial(liveQueries['about-people'], peopleSearch),
  'about-contact': editorial(liveQueries['about-contact']),
  'about-podcast': editorial(liveQueries['about-podcast']),
  'about-large': editorial(liveQueries['about-large']),
  'about-artistic-research': editorial(liveQueries['about-artistic-research']),

  events: { ...liveQueries.events, lastmod: (data: EventsIndexResult) => newest(data.home.upcomingEvents) },
  'events-page': laterPage(EVENTS_PAGE_QUERY, eventsPageEntries, (data: EventsPageResult) => data.events.nodes),
  'event-category': {
    ...liveQueries['event-category'],
    entries: eventCategoryEntries,
    lastmod: (data: EventCategoryResult) => newest(data.events.nodes),
  },
  'event-category-page': laterPage(EVENT_CATEGORY_QUERY, eventCategoryPageEntries, (data: EventCategoryResult) => data.events.nodes),
  event: {
    ...liveQueries.event,
    entries: eventEntries,
    exists: (data: EventResult) => data.event !== null,
    lastmod: (data: EventResult) => data.event?.updatedAt,
    search: eventSearch,
  },

  publications: { ...liveQueries.publications, lastmod: (data: PublicationsIndexResult) => newest(data.publications.nodes) },
  'publications-page': laterPage(
    PUBLICATIONS_INDEX_QUERY,
    laterPages(publicationsList),
    (data: PublicationsIndexResult) => data.publications.nodes,
  ),
  'publication-category': {
    ...liveQueries['publication-category'],
    entries: publicationCategoryEntries,
    lastmod: (data: PublicationCategoryResult) => newest(data.publications.nodes),
  },
  'publication-category-page': laterPage(
    PUBLICATION_CATEGORY_QUERY,
    laterCategoryPages(publicationCategoryList, publicationCategorySlugs),
    (data: PublicationCategoryResult) => data.publications.nodes,
  ),
  publication: {
    ...liveQueries.publication,
    entries: publicationEntries,
    exists: (data: PublicationResult) => data.publication !== null,
    lastmod: (data: PublicationResult) => data.publication?.updatedAt,
    search: publicationSearch,
  },

  courses: { ...liveQueries.courses, lastmod: (data: CoursesResult) => newest(data.courses.nodes), search: coursesSearch },
  'courses-page': laterPage(COURSES_QUERY, laterPages(coursesList), (data: CoursesResult) => data.courses.nodes, coursesSearch),

  research: { ...liveQueries.research, lastmod: (data: ResearchIndexResult) => newest(data.researchProjects.nodes) },
  'research-page': laterPage(RESEARCH_INDEX_QUERY, laterPages(researchList), (data: ResearchIndexResult) => data.researchProjects.nodes),
  'research-project': {
    ...liveQueries['research-project'],
    entries: researchProjectEntries,
    exists: (data: ResearchProjectResult) => data.researchProject !== null,
    lastmod: (data: ResearchProjectResult) => data.researchProject?.updatedAt,
    search: researchProjectSearch,
  },

  documents: { ...liveQueries.documents, lastmod: (data: DocumentsResult) => newest(data.documents.nodes), search: documentsSearch },
  'documents-page': laterPage(DOCUMENTS_QUERY, laterPages(documentsList), (data: DocumentsResult) => data.documents.nodes, documentsSearch),

  // The login form has no content; its page still needs a (trivial, token-free) query.
  login: { query: 'query LoginPage { __typename }' },
  // The search page runs in the browser against the index the build writes (cli/output/search-index.ts).
  search: { query: 'query SearchPage { __typename }' },
}) satisfies Record<RouteId, RouteDataDefinition>;
