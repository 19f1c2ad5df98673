import { defineRouteData, type RouteDataDefinition, type SiteDataDefinition } from '../runtime/shared/route-data.ts';
import {
  eventCategoryEntries,
  eventEntries,
  newsArticleEntries,
  publicationCategoryEntries,
  publicationEntries,
  researchProjectEntries,
} from './build/entries.ts';
import { COURSES_QUERY, type CoursesResult } from './queries/courses.ts';
import { DOCUMENTS_QUERY, type DocumentsResult } from './queries/documents.ts';
import { EVENT_CATEGORY_QUERY, EVENT_QUERY, EVENTS_INDEX_QUERY, type EventCategoryResult, type EventResult, type EventsIndexResult } from './queries/events.ts';
import { HOME_QUERY, type HomeResult } from './queries/home.ts';
import { NEWS_ARTICLE_QUERY, NEWS_INDEX_QUERY, type NewsArticleResult, type NewsIndexResult } from './queries/news.ts';
import { PAGE_QUERY, PAGE_SLUGS, type PageData } from './queries/pages.ts';
import { ABOUT_PEOPLE_QUERY } from './queries/people.ts';
import { ABOUT_PODCAST_QUERY } from './queries/podcast.ts';
import { PUBLICATION_CATEGORY_QUERY, PUBLICATION_QUERY, PUBLICATIONS_INDEX_QUERY, type PublicationCategoryResult, type PublicationResult, type PublicationsIndexResult } from './queries/publications.ts';
import { ARTISTIC_RESEARCH_QUERY, RESEARCH_INDEX_QUERY, RESEARCH_PROJECT_QUERY, type ResearchIndexResult, type ResearchProjectResult } from './queries/research.ts';
import { SITE_QUERY } from './queries/site.ts';
import type { RouteId } from './routes.ts';

/**
 * The build-only half of the route table (DESIGN.md "The shape"): how each route of site/routes.ts gets
 * its data, keyed by route id. Never imported by browser code.
 */

/** The layout-level data every page shares; `useSite()` returns its result. */
export const siteData: SiteDataDefinition = { query: SITE_QUERY };

type Params = Record<string, string>;
type EditorialResult = { page: PageData | null };

/**
 * An about route: one editorial page, which must exist for the route to be built. Routes that only show the
 * page use the shared PAGE_QUERY with its slug; the others name their page inside their own query.
 */
function editorial(query: string, variables?: { slug: string }): RouteDataDefinition {
  return {
    query,
    ...(variables ? { variables: () => variables } : {}),
    exists: (data: EditorialResult) => data.page !== null,
    lastmod: (data: EditorialResult) => data.page?.updatedAt,
  };
}

/** The newest `updatedAt` of a list: the sitemap's last modification of a list page. */
function newest(items: readonly { updatedAt: string }[]): string | undefined {
  return items.reduce<string | undefined>((max, item) => (!max || item.updatedAt > max ? item.updatedAt : max), undefined);
}

// `satisfies` turns a route of site/routes.ts without data here into a type error rather than a failed build.
export const routeData = defineRouteData({
  home: { query: HOME_QUERY, lastmod: (data: HomeResult) => data.home.updatedAt },

  news: { query: NEWS_INDEX_QUERY, lastmod: (data: NewsIndexResult) => newest(data.newsItems.nodes) },
  'news-article': {
    query: NEWS_ARTICLE_QUERY,
    variables: (params: Params) => ({ slug: params.slug }),
    entries: newsArticleEntries,
    exists: (data: NewsArticleResult) => data.newsItem !== null,
    lastmod: (data: NewsArticleResult) => data.newsItem?.updatedAt,
  },

  about: editorial(PAGE_QUERY, { slug: PAGE_SLUGS.about }),
  'about-people': editorial(ABOUT_PEOPLE_QUERY),
  'about-contact': editorial(PAGE_QUERY, { slug: PAGE_SLUGS.contact }),
  'about-podcast': editorial(ABOUT_PODCAST_QUERY),
  'about-large': editorial(PAGE_QUERY, { slug: PAGE_SLUGS.aboutLarge }),
  'about-artistic-research': editorial(ARTISTIC_RESEARCH_QUERY),

  events: { query: EVENTS_INDEX_QUERY, lastmod: (data: EventsIndexResult) => newest(data.events.nodes) },
  'event-category': {
    query: EVENT_CATEGORY_QUERY,
    variables: (params: Params) => ({ category: params.category }),
    entries: eventCategoryEntries,
    lastmod: (data: EventCategoryResult) => newest(data.events.nodes),
  },
  event: {
    query: EVENT_QUERY,
    variables: (params: Params) => ({ category: params.category, slug: params.slug }),
    entries: eventEntries,
    exists: (data: EventResult) => data.event !== null,
    lastmod: (data: EventResult) => data.event?.updatedAt,
  },

  publications: { query: PUBLICATIONS_INDEX_QUERY, lastmod: (data: PublicationsIndexResult) => newest(data.publications.nodes) },
  'publication-category': {
    query: PUBLICATION_CATEGORY_QUERY,
    variables: (params: Params) => ({ category: params.category }),
    entries: publicationCategoryEntries,
    lastmod: (data: PublicationCategoryResult) => newest(data.publications.nodes),
  },
  publication: {
    query: PUBLICATION_QUERY,
    variables: (params: Params) => ({ category: params.category, slug: params.slug }),
    entries: publicationEntries,
    exists: (data: PublicationResult) => data.publication !== null,
    lastmod: (data: PublicationResult) => data.publication?.updatedAt,
  },

  courses: { query: COURSES_QUERY, lastmod: (data: CoursesResult) => newest(data.courses.nodes) },

  research: { query: RESEARCH_INDEX_QUERY, lastmod: (data: ResearchIndexResult) => newest(data.researchProjects.nodes) },
  'research-project': {
    query: RESEARCH_PROJECT_QUERY,
    variables: (params: Params) => ({ slug: params.slug }),
    entries: researchProjectEntries,
    exists: (data: ResearchProjectResult) => data.researchProject !== null,
    lastmod: (data: ResearchProjectResult) => data.researchProject?.updatedAt,
  },

  documents: { query: DOCUMENTS_QUERY, lastmod: (data: DocumentsResult) => newest(data.documents.nodes) },
}) satisfies Record<RouteId, RouteDataDefinition>;
