import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findRoute } from '../../../runtime/routes.ts';
import type { SiteData } from '../../../runtime/shared/contract.ts';
import type { RouteDefinition } from '../../../runtime/routes.ts';
import type { RouteDataDefinition } from '../../../runtime/shared/route-data.ts';
import { routes as siteRoutes } from '../../../site/routes.ts';
import { routeData as siteRouteData, siteData } from '../../../site/routes.build.ts';
import { SITE_QUERY } from '../../../site/queries/site.ts';

/**
 * The route table against docs/decisions/route-table.md: every path, in an order where static paths win, with its layout;
 * plus the later pages of every list (`…/page/:page`) and the editors' login page.
 */

const SPEC_ROUTES: Array<[path: string, layout: 'home' | 'default']> = [
  ['/', 'home'],
  ['/news', 'default'],
  ['/news/page/:page', 'default'],
  ['/news/:slug', 'default'],
  ['/about', 'default'],
  ['/about/people', 'default'],
  ['/about/contact', 'default'],
  ['/about/podcast', 'default'],
  ['/about/about-large', 'default'],
  ['/about/artistic-research', 'default'],
  ['/events', 'default'],
  ['/events/page/:page', 'default'],
  ['/events/:category', 'default'],
  ['/events/:category/page/:page', 'default'],
  ['/events/:category/:slug', 'default'],
  ['/publications', 'default'],
  ['/publications/page/:page', 'default'],
  ['/publication/:category', 'default'],
  ['/publication/:category/page/:page', 'default'],
  ['/publication/:category/:slug', 'default'],
  ['/courses', 'default'],
  ['/courses/page/:page', 'default'],
  ['/research', 'default'],
  ['/research/page/:page', 'default'],
  ['/research/:slug', 'default'],
  ['/documents', 'default'],
  ['/documents/page/:page', 'default'],
  ['/login', 'default'],
  ['/search', 'default'],
];

// Seen as the runtime and the build see them: the literal types of the tables do not matter here.
const routes: readonly RouteDefinition[] = siteRoutes;
const routeData: Readonly<Record<string, RouteDataDefinition>> = siteRouteData;

const site: SiteData = {
  site: { name: 'Institute' },
  eventCategories: [{ slug: 'lectures', title: 'Lectures', description: 'Talks.' }],
  publicationCategories: [{ slug: 'articles', title: 'Articles', description: 'Journal articles.' }],
};

function validateAt(pathname: string, siteData: SiteData = site): boolean {
  const match = findRoute(routes, pathname);
  if (!match) throw new Error(`no route matches ${pathname}`);
  return match.route.validate ? match.route.validate(match.params, siteData) : true;
}

describe('site route table', () => {
  it('lists every route of the spec in order, with the home layout only on the index page', () => {
    expect(routes.map((r) => [r.path, r.layout ?? 'default'])).toEqual(SPEC_ROUTES);
  });

  it('gives every route a unique id and a page module that exists under site/pages', () => {
    expect(new Set(routes.map((r) => r.id)).size).toBe(routes.length);
    for (const route of routes) {
      expect(existsSync(new URL(`../../../site/pages/${route.page}.tsx`, import.meta.url)), route.page).toBe(true);
    }
  });

  it('loads a page component from each route', async () => {
    for (const route of routes) {
      const mod = await route.load();
      expect(typeof mod.default, route.id).toBe('function');
    }
  });

  it('matches static about paths before any pattern could claim them', () => {
    expect(findRoute(routes, '/about/people')?.route.id).toBe('about-people');
    expect(findRoute(routes, '/events/lectures')?.route.id).toBe('event-category');
    expect(findRoute(routes, '/publication/articles/a-study')?.route.id).toBe('publication');
  });

  it('accepts well-formed slugs in known categories', () => {
    expect(validateAt('/news/spring-concert-2026')).toBe(true);
    expect(validateAt('/events/lectures')).toBe(true);
    expect(validateAt('/events/lectures/open-day')).toBe(true);
    expect(validateAt('/publication/articles/a-study')).toBe(true);
    expect(validateAt('/research/sound-and-space')).toBe(true);
  });

  it('rejects a malformed slug on every item route', () => {
    for (const path of [
      '/news/Bad_Slug',
      '/news/-leading-hyphen',
      '/research/%2e%2e',
      '/events/lectures/UPPER',
      '/publication/articles/a.b',
    ]) {
      expect(validateAt(path), path).toBe(false);
    }
    expect(validateAt(`/news/${'a'.repeat(201)}`)).toBe(false);
  });

  it('rejects an unknown category, on category and item routes alike', () => {
    expect(validateAt('/events/unknown')).toBe(false);
    expect(validateAt('/publication/unknown')).toBe(false);
    expect(validateAt('/events/unknown/open-day')).toBe(false);
    expect(validateAt('/publication/unknown/a-study')).toBe(false);
  });

  it('treats missing category data as "no categories" instead of throwing', () => {
    expect(validateAt('/events/lectures', {})).toBe(false);
  });

  it('takes the home title from the site name and item titles from their data', () => {
    const home = routes.find((r) => r.id === 'home');
    expect(home?.head({ home: { title: 'Welcome', intro: 'Hello.' } }, {}, site).title).toBe('Institute');
    const article = routes.find((r) => r.id === 'news-article');
    const image = { url: '/media/a.svg', alt: '', width: 4, height: 3 };
    expect(
      article?.head({ newsItem: { slug: 'hello', title: 'Hello', summary: 'World', image, tags: [] } }, { slug: 'hello' }, site),
    ).toMatchObject({
      title: 'Hello',
      description: 'World',
      image: '/media/a.svg',
    });
    const category = routes.find((r) => r.id === 'event-category');
    expect(category?.head(null, { category: 'lectures' }, site)).toMatchObject({ title: 'Lectures · Events', description: 'Talks.' });
  });

  it('falls back to a generic head when a page has no data yet', () => {
    for (const route of routes) {
      const head = route.head(null, { slug: 'x', category: 'lectures' }, site);
      expect(typeof head.title, route.id).toBe('string');
      expect(head.title.length, route.id).toBeGreaterThan(0);
    }
  });
});

describe('site route data', () => {
  it('has data for exactly the routes of the route table', () => {
    expect(Object.keys(routeData).sort()).toEqual(routes.map((r) => r.id).sort());
  });

  it('lists the pages of every route with params', () => {
    for (const route of routes) {
      expect(Boolean(routeData[route.id]?.entries), route.id).toBe(route.path.includes(':'));
    }
  });

  it('runs the site query once for the layouts', () => {
    expect(siteData.query).toBe(SITE_QUERY);
  });
});
