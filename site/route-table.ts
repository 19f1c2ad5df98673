import { defineRoutes } from '../runtime/index.ts';

/**
 * The browser's route table (docs/decisions/route-table.md): each route's path, layout and page module, which is all
 * a page needs to hydrate. The first matching route wins, so static paths come before the patterns that
 * would also match them. `page` names the module that `load` imports, one chunk per page; every list has
 * later pages at `{list}/page/:page` (page 1 stays at the list's own path), rendered by the list's own
 * page module. Each route's checks and head fields are in site/routes.ts, which the browser loads after
 * the first render, and its data in site/routes.build.ts, both keyed by the same id.
 */
export const routeTable = defineRoutes(
  [
    { id: 'home', page: 'home', path: '/', layout: 'home', load: () => import('./pages/home.tsx') },
    { id: 'news', page: 'news-index', path: '/news', load: () => import('./pages/news-index.tsx') },
    { id: 'news-page', page: 'news-index', path: '/news/page/:page', load: () => import('./pages/news-index.tsx') },
    { id: 'news-article', page: 'news-article', path: '/news/:slug', load: () => import('./pages/news-article.tsx') },
    { id: 'about', page: 'about', path: '/about', load: () => import('./pages/about.tsx') },
    { id: 'about-people', page: 'about-people', path: '/about/people', load: () => import('./pages/about-people.tsx') },
    { id: 'about-contact', page: 'about-contact', path: '/about/contact', load: () => import('./pages/about-contact.tsx') },
    { id: 'about-podcast', page: 'about-podcast', path: '/about/podcast', load: () => import('./pages/about-podcast.tsx') },
    { id: 'about-large', page: 'about-large', path: '/about/about-large', load: () => import('./pages/about-large.tsx') },
    {
      id: 'about-artistic-research',
      page: 'about-artistic-research',
      path: '/about/artistic-research',
      load: () => import('./pages/about-artistic-research.tsx'),
    },
    { id: 'events', page: 'events-index', path: '/events', load: () => import('./pages/events-index.tsx') },
    // Before /events/:category/:slug, which would take `page` for a category.
    { id: 'events-page', page: 'events-page', path: '/events/page/:page', load: () => import('./pages/events-page.tsx') },
    { id: 'event-category', page: 'event-category', path: '/events/:category', load: () => import('./pages/event-category.tsx') },
    {
      id: 'event-category-page',
      page: 'event-category',
      path: '/events/:category/page/:page',
      load: () => import('./pages/event-category.tsx'),
    },
    { id: 'event', page: 'event', path: '/events/:category/:slug', load: () => import('./pages/event.tsx') },
    { id: 'publications', page: 'publications-index', path: '/publications', load: () => import('./pages/publications-index.tsx') },
    {
      id: 'publications-page',
      page: 'publications-index',
      path: '/publications/page/:page',
      load: () => import('./pages/publications-index.tsx'),
    },
    {
      id: 'publication-category',
      page: 'publication-category',
      path: '/publication/:category',
      load: () => import('./pages/publication-category.tsx'),
    },
    {
      id: 'publication-category-page',
      page: 'publication-category',
      path: '/publication/:category/page/:page',
      load: () => import('./pages/publication-category.tsx'),
    },
    { id: 'publication', page: 'publication', path: '/publication/:category/:slug', load: () => import('./pages/publication.tsx') },
    { id: 'courses', page: 'courses', path: '/courses', load: () => import('./pages/courses.tsx') },
    { id: 'courses-page', page: 'courses', path: '/courses/page/:page', load: () => import('./pages/courses.tsx') },
    { id: 'research', page: 'research-index', path: '/research', load: () => import('./pages/research-index.tsx') },
    { id: 'research-page', page: 'research-index', path: '/research/page/:page', load: () => import('./pages/research-index.tsx') },
    { id: 'research-project', page: 'research-project', path: '/research/:slug', load: () => import('./pages/research-project.tsx') },
    { id: 'documents', page: 'documents', path: '/documents', load: () => import('./pages/documents.tsx') },
    { id: 'documents-page', page: 'documents', path: '/documents/page/:page', load: () => import('./pages/documents.tsx') },
    // Editor preview: the login form. Kept out of search engines and the sitemap (its head says noindex).
    { id: 'login', page: 'login', path: '/login', load: () => import('./pages/login.tsx') },
    // Site search, in the browser against the index the build writes; the header's search field leads here.
    { id: 'search', page: 'search', path: '/search', load: () => import('./pages/search.tsx') },
  ],
  {
    // Live data (editor preview, login, payloads that cannot be loaded): its own chunk, loaded on first use.
    live: () => import('./live-data.ts'),
    // Sentry: its own chunk, loaded after the first render and only when the build has a DSN.
    errorReporting: () => import('../runtime/sentry.ts'),
  },
);

/** Route ids, the keys routes.build.ts and site/routes.ts must cover. */
export type RouteId = (typeof routeTable)[number]['id'];
