import { defineRoutes } from '../runtime/index.ts';
import {
  validateEvent,
  validateEventCategory,
  validatePublication,
  validatePublicationCategory,
  validateSlug,
} from './route-guards.ts';
import {
  categoryHead,
  editorialHead,
  eventHead,
  homeHead,
  newsArticleHead,
  publicationHead,
  researchProjectHead,
  staticHead,
} from './route-heads.ts';

/**
 * The client-safe route table (SPEC.md section 2). The first matching route wins, so static paths come
 * before the patterns that would also match them. Each route's data comes from routes.build.ts, keyed by
 * the same id; `page` names the module that `load` imports, one chunk per page.
 */
export const routes = defineRoutes([
  { id: 'home', page: 'home', path: '/', layout: 'home', load: () => import('./pages/home.tsx'), head: homeHead },
  {
    id: 'news',
    page: 'news-index',
    path: '/news',
    load: () => import('./pages/news-index.tsx'),
    head: staticHead('News', 'Announcements, stories and results from across the institute.'),
  },
  {
    id: 'news-article',
    page: 'news-article',
    path: '/news/:slug',
    load: () => import('./pages/news-article.tsx'),
    validate: validateSlug,
    head: newsArticleHead,
  },
  { id: 'about', page: 'about', path: '/about', load: () => import('./pages/about.tsx'), head: editorialHead('About') },
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
    head: editorialHead('Contact'),
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
    head: staticHead('Events', 'Lectures, concerts, workshops and open days at the institute.'),
  },
  {
    id: 'event-category',
    page: 'event-category',
    path: '/events/:category',
    load: () => import('./pages/event-category.tsx'),
    validate: validateEventCategory,
    head: categoryHead('eventCategories', 'Events'),
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
    head: staticHead('Publications', "Books, articles, reports and recordings by the institute's researchers."),
  },
  {
    id: 'publication-category',
    page: 'publication-category',
    path: '/publication/:category',
    load: () => import('./pages/publication-category.tsx'),
    validate: validatePublicationCategory,
    head: categoryHead('publicationCategories', 'Publications'),
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
    head: staticHead('Courses', 'Courses taught at the institute, with their level, credits, period and teachers.'),
  },
  {
    id: 'research',
    page: 'research-index',
    path: '/research',
    load: () => import('./pages/research-index.tsx'),
    head: staticHead('Research', "Research projects of the institute's researchers and artists."),
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
    head: staticHead('Documents', 'Annual reports, regulations, forms and other documents to download.'),
  },
]);

/** Route ids, the keys routes.build.ts must cover. */
export type RouteId = (typeof routes)[number]['id'];
