import { defineRoutes } from '../runtime/index.ts';
import { EVENTS_FEED, NEWS_FEED } from './data/feeds.ts';
import { EVENTS_CRUMB, PUBLICATIONS_CRUMB } from './data/trails.ts';
import {
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

const newsHead = listHead('News', 'Announcements, stories and results from across the institute.', { base: '/news', alternates: [NEWS_FEED] });
const eventsHead = listHead('Events', 'Lectures, concerts, workshops and open days at the institute.', { base: '/events', alternates: [EVENTS_FEED] });
const publicationsHead = listHead('Publications', "Books, articles, reports and recordings by the institute's researchers.", { base: '/publications' });
const coursesHead = listHead('Courses', 'Courses taught at the institute, with their level, credits, period and teachers.', { base: '/courses', items: coursesItems });
const researchHead = listHead('Research', "Research projects of the institute's researchers and artists.", { base: '/research' });
const documentsHead = listHead('Documents', 'Annual reports, regulations, forms and other documents to download.', { base: '/documents' });

/**
 * The client-safe route table (SPEC.md section 2). The first matching route wins, so static paths come
 * before the patterns that would also match them. Each route's data comes from routes.build.ts, keyed by
 * the same id; `page` names the module that `load` imports, one chunk per page. Every list has later pages
 * at `{list}/page/:page` (page 1 stays at the list's own path), rendered by the list's own page module.
 */
export const routes = defineRoutes([
  { id: 'home', page: 'home', path: '/', layout: 'home', load: () => import('./pages/home.tsx'), head: homeHead },
  {
    id: 'news',
    page: 'news-index',
    path: '/news',
    load: () => import('./pages/news-index.tsx'),
    head: newsHead,
  },
  {
    id: 'news-page',
    page: 'news-index',
    path: '/news/page/:page',
    load: () => import('./pages/news-index.tsx'),
    validate: validatePage,
    head: newsHead,
  },
  {
    id: 'news-article',
    page: 'news-article',
    path: '/news/:slug',
    load: () => import('./pages/news-article.tsx'),
    validate: validateSlug,
    head: newsArticleHead,
  },
  { id: 'about', page: 'about', path: '/about', load: () => import('./pages/about.tsx'), head: editorialHead('About', { top: true }) },
  {
    id: 'about-people',
    page: 'about-people',
    path: '/about/people',
    load: () => import('./pages/about-people.tsx'),
    head: editorialHead('People'),
  },
  {
    id: 'about-contact',
    page: 'about-contact',
    path: '/about/contact',
    load: () => import('./pages/about-contact.tsx'),
    head: editorialHead('Contact', { describesInstitute: true }),
  },
  {
    id: 'about-podcast',
    page: 'about-podcast',
    path: '/about/podcast',
    load: () => import('./pages/about-podcast.tsx'),
    head: editorialHead('Podcast'),
  },
  {
    id: 'about-large',
    page: 'about-large',
    path: '/about/about-large',
    load: () => import('./pages/about-large.tsx'),
    head: editorialHead('About'),
  },
  {
    id: 'about-artistic-research',
    page: 'about-artistic-research',
    path: '/about/artistic-research',
    load: () => import('./pages/about-artistic-research.tsx'),
    head: editorialHead('Artistic research'),
  },
  {
    id: 'events',
    page: 'events-index',
    path: '/events',
    load: () => import('./pages/events-index.tsx'),
    head: eventsHead,
  },
  // Before /events/:category/:slug, which would take `page` for a category.
  {
    id: 'events-page',
    page: 'events-page',
    path: '/events/page/:page',
    load: () => import('./pages/events-page.tsx'),
    validate: validatePage,
    head: eventsHead,
  },
  {
    id: 'event-category',
    page: 'event-category',
    path: '/events/:category',
    load: () => import('./pages/event-category.tsx'),
    validate: validateEventCategory,
    head: categoryHead('eventCategories', EVENTS_CRUMB),
  },
  {
    id: 'event-category-page',
    page: 'event-category',
    path: '/events/:category/page/:page',
    load: () => import('./pages/event-category.tsx'),
    validate: validateEventCategoryPage,
    head: categoryHead('eventCategories', EVENTS_CRUMB),
  },
  {
    id: 'event',
    page: 'event',
    path: '/events/:category/:slug',
    load: () => import('./pages/event.tsx'),
    validate: validateEvent,
    head: eventHead,
  },
  {
    id: 'publications',
    page: 'publications-index',
    path: '/publications',
    load: () => import('./pages/publications-index.tsx'),
    head: publicationsHead,
  },
  {
    id: 'publications-page',
    page: 'publications-index',
    path: '/publications/page/:page',
    load: () => import('./pages/publications-index.tsx'),
    validate: validatePage,
    head: publicationsHead,
  },
  {
    id: 'publication-category',
    page: 'publication-category',
    path: '/publication/:category',
    load: () => import('./pages/publication-category.tsx'),
    validate: validatePublicationCategory,
    head: categoryHead('publicationCategories', PUBLICATIONS_CRUMB),
  },
  {
    id: 'publication-category-page',
    page: 'publication-category',
    path: '/publication/:category/page/:page',
    load: () => import('./pages/publication-category.tsx'),
    validate: validatePublicationCategoryPage,
    head: categoryHead('publicationCategories', PUBLICATIONS_CRUMB),
  },
  {
    id: 'publication',
    page: 'publication',
    path: '/publication/:category/:slug',
    load: () => import('./pages/publication.tsx'),
    validate: validatePublication,
    head: publicationHead,
  },
  {
    id: 'courses',
    page: 'courses',
    path: '/courses',
    load: () => import('./pages/courses.tsx'),
    head: coursesHead,
  },
  {
    id: 'courses-page',
    page: 'courses',
    path: '/courses/page/:page',
    load: () => import('./pages/courses.tsx'),
    validate: validatePage,
    head: coursesHead,
  },
  {
    id: 'research',
    page: 'research-index',
    path: '/research',
    load: () => import('./pages/research-index.tsx'),
    head: researchHead,
  },
  {
    id: 'research-page',
    page: 'research-index',
    path: '/research/page/:page',
    load: () => import('./pages/research-index.tsx'),
    validate: validatePage,
    head: researchHead,
  },
  {
    id: 'research-project',
    page: 'research-project',
    path: '/research/:slug',
    load: () => import('./pages/research-project.tsx'),
    validate: validateSlug,
    head: researchProjectHead,
  },
  {
    id: 'documents',
    page: 'documents',
    path: '/documents',
    load: () => import('./pages/documents.tsx'),
    head: documentsHead,
  },
  {
    id: 'documents-page',
    page: 'documents',
    path: '/documents/page/:page',
    load: () => import('./pages/documents.tsx'),
    validate: validatePage,
    head: documentsHead,
  },
  // Editor preview: the login form. Kept out of search engines and the sitemap.
  {
    id: 'login',
    page: 'login',
    path: '/login',
    load: () => import('./pages/login.tsx'),
    head: () => ({ title: 'Editor login', description: 'Log in to preview drafts and unpublished changes.', noindex: true }),
  },
], {
  // Live data (editor preview, login, payloads that cannot be loaded): its own chunk, loaded on first use.
  live: () => import('./live-data.ts'),
  // Sentry: its own chunk, loaded after the first render and only when the build has a DSN.
  errorReporting: () => import('../runtime/sentry.ts'),
});

/** Route ids, the keys routes.build.ts must cover. */
export type RouteId = (typeof routes)[number]['id'];
