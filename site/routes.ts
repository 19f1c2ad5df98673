import { defineRoutes, type RouteDefinition, type RouteDetails } from '../runtime/index.ts';
import { EVENTS_FEED, NEWS_FEED } from './data/feeds.ts';
import { EVENTS_CRUMB, PUBLICATIONS_CRUMB } from './data/trails.ts';
import {
  validateArchivePage,
  validateEvent,
  validateEventCategory,
  validateEventCategoryPage,
  validatePage,
  validatePublication,
  validatePublicationCategory,
  validatePublicationCategoryPage,
  validateSlug,
} from './route-guards.ts';
import {
  categoryHead,
  coursesItems,
  editorialHead,
  eventHead,
  homeHead,
  listHead,
  newsArticleHead,
  publicationHead,
  researchProjectHead,
} from './route-heads.ts';
import { routeTable, type RouteId } from './route-table.ts';

export type { RouteId } from './route-table.ts';

const newsHead = listHead('News', 'Announcements, stories and results from across the institute.', {
  base: '/news',
  alternates: [NEWS_FEED],
  archive: true,
});
const eventsHead = listHead('Events', 'Lectures, concerts, workshops and open days at the institute.', {
  base: '/events',
  alternates: [EVENTS_FEED],
});
const publicationsHead = listHead('Publications', "Books, articles, reports and recordings by the institute's researchers.", {
  base: '/publications',
});
const coursesHead = listHead('Courses', 'Courses taught at the institute, with their level, credits, period and teachers.', {
  base: '/courses',
  items: coursesItems,
});
const researchHead = listHead('Research', "Research projects of the institute's researchers and artists.", { base: '/research' });
const documentsHead = listHead('Documents', 'Annual reports, regulations, forms and other documents to download.', { base: '/documents' });
const eventCategoryHead = categoryHead('eventCategories', EVENTS_CRUMB);
const publicationCategoryHead = categoryHead('publicationCategories', PUBLICATIONS_CRUMB);

/** Each route's parameter checks and `<head>` fields, by route id. */
const details: Record<RouteId, RouteDetails> = {
  home: { head: homeHead },
  news: { head: newsHead },
  'news-page': { validate: validateArchivePage, head: newsHead },
  'news-article': { validate: validateSlug, head: newsArticleHead },
  about: { head: editorialHead('About', { top: true }) },
  'about-people': { head: editorialHead('People') },
  'about-contact': { head: editorialHead('Contact', { describesInstitute: true }) },
  'about-podcast': { head: editorialHead('Podcast') },
  'about-large': { head: editorialHead('About') },
  'about-artistic-research': { head: editorialHead('Artistic research') },
  events: { head: eventsHead },
  'events-page': { validate: validatePage, head: eventsHead },
  'event-category': { validate: validateEventCategory, head: eventCategoryHead },
  'event-category-page': { validate: validateEventCategoryPage, head: eventCategoryHead },
  event: { validate: validateEvent, head: eventHead },
  publications: { head: publicationsHead },
  'publications-page': { validate: validatePage, head: publicationsHead },
  'publication-category': { validate: validatePublicationCategory, head: publicationCategoryHead },
  'publication-category-page': { validate: validatePublicationCategoryPage, head: publicationCategoryHead },
  publication: { validate: validatePublication, head: publicationHead },
  courses: { head: coursesHead },
  'courses-page': { validate: validatePage, head: coursesHead },
  research: { head: researchHead },
  'research-page': { validate: validatePage, head: researchHead },
  'research-project': { validate: validateSlug, head: researchProjectHead },
  documents: { head: documentsHead },
  'documents-page': { validate: validatePage, head: documentsHead },
  login: { head: () => ({ title: 'Editor login', description: 'Log in to preview drafts and unpublished changes.', noindex: true }) },
  // Search runs Pagefind's WebAssembly: only this page's policy allows it. Results pages are not for search engines.
  search: {
    head: () => ({
      title: 'Search',
      description: 'Search news, events, publications, research, courses, documents and people.',
      noindex: true,
    }),
    webAssembly: true,
  },
};

/**
 * The whole route table, as the build renders it: each entry of site/route-table.ts (path, layout, page
 * module) with its checks and head fields. Each route's data comes from routes.build.ts, keyed by the same id.
 */
export const routes = defineRoutes(
  routeTable.map((entry): RouteDefinition & { id: RouteId } => ({ ...entry, ...details[entry.id] })),
  { live: routeTable.live, errorReporting: routeTable.errorReporting },
);
