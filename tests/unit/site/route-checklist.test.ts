import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findRoute, type LiveQuery, type RouteDefinition } from '../../../runtime/routes.ts';
import type { RouteDataDefinition } from '../../../runtime/shared/route-data.ts';
import { layouts } from '../../../site/layouts/index.ts';
import { liveQueries as siteLiveQueries } from '../../../site/route-queries.ts';
import { routeTable } from '../../../site/route-table.ts';
import { routeData as siteRouteData } from '../../../site/routes.build.ts';
import { routes as siteRoutes } from '../../../site/routes.ts';
import { routeSamples, site } from './fixtures.ts';

/**
 * "Adding a route" in docs/site-authoring.md, checked: each route of the route table has its entry in every
 * place the checklist names, so a route with one of them forgotten fails here, naming the route and the file,
 * rather than as a blank page, a page that cannot refresh in editor preview, or a page missing from the sitemap.
 */

// Seen as the runtime and the build see them: the literal types of the tables do not matter here.
const routes: readonly RouteDefinition[] = siteRoutes;
const routeData: Readonly<Record<string, RouteDataDefinition | undefined>> = siteRouteData;
const liveQueries: Readonly<Record<string, LiveQuery | undefined>> = siteLiveQueries;
const ids = routes.map((route) => route.id);

/** A later page of a list: its data is cut from a walk of the list at build time, never fetched alone. */
const isLaterPage = (route: RouteDefinition): boolean => route.path.endsWith('/page/:page');
/** A page without content (login, search): its build query asks for nothing. */
const isContentFree = (id: string): boolean => /^\s*query \w+ \{ __typename \}\s*$/.test(routeData[id]?.query ?? '');
const pageModule = (page: string): URL => new URL(`../../../site/pages/${page}.tsx`, import.meta.url);

describe.each(routes.map((route) => [route.id, route] as const))('route %s', (id, route) => {
  it('1. has a page component in site/pages/{page}.tsx, the module (and so the chunk) its route-table entry loads', async () => {
    expect(existsSync(pageModule(route.page)), `site/pages/${route.page}.tsx`).toBe(true);
    const loaded = (await route.load()) as { default?: unknown };
    expect(typeof loaded.default, `the default export of site/pages/${route.page}.tsx`).toBe('function');
    expect(loaded, `site/route-table.ts: the load() of ${id} imports site/pages/${route.page}.tsx`).toBe(
      await import(pageModule(route.page).href),
    );
    expect(layouts[route.layout ?? 'default'], `site/route-table.ts: layout of ${id}`).toBeDefined();
  });

  it('2. checks the params of its path before anything loads (site/route-guards.ts, used in site/routes.ts)', () => {
    expect(typeof route.head, `site/routes.ts: head of ${id}`).toBe('function');
    if (route.path.includes(':'))
      expect(typeof route.validate, `site/routes.ts: validate of ${id}, whose path has params`).toBe('function');
  });

  it('3. has the query the browser runs for editor preview in site/route-queries.ts, the same the build runs', () => {
    const live = liveQueries[id];
    if (isLaterPage(route) || isContentFree(id)) {
      expect(live, `site/route-queries.ts: ${id} has no data of its own to fetch, and needs no live query`).toBeUndefined();
      return;
    }
    expect(live, `site/route-queries.ts: live query of ${id}`).toBeDefined();
    expect(routeData[id]?.query, `site/routes.build.ts: ${id} spreads liveQueries['${id}']`).toBe(live?.query);
    expect(routeData[id]?.variables, `site/routes.build.ts: ${id} spreads liveQueries['${id}']`).toBe(live?.variables);
  });

  it('4. has its data in site/routes.build.ts: entries for a path with params, a lastmod for the sitemap unless noindex', () => {
    const data = routeData[id];
    expect(data, `site/routes.build.ts: routeData of ${id}`).toBeDefined();
    expect(Boolean(data?.entries), `site/routes.build.ts: entries of ${id} (only a path with params lists its pages)`).toBe(
      route.path.includes(':'),
    );
    const noindex = route.head(null, routeSamples[id]?.params ?? {}, site).noindex === true;
    if (!noindex) expect(typeof data?.lastmod, `site/routes.build.ts: lastmod of ${id}, which is in the sitemap`).toBe('function');
    if (isContentFree(id)) expect(noindex, `site/routes.ts: the head of ${id}, a page without content, says noindex`).toBe(true);
  });

  it('5. has sample data at a path it matches in tests/unit/site/fixtures.ts', () => {
    const sample = routeSamples[id];
    expect(sample, `tests/unit/site/fixtures.ts: routeSamples of ${id}`).toBeDefined();
    expect(findRoute(routes, sample!.path)?.route.id, `tests/unit/site/fixtures.ts: the path of ${id}'s sample`).toBe(id);
  });
});

describe('the route tables', () => {
  it('name only routes of site/route-table.ts, each id once', () => {
    expect(new Set(ids).size).toBe(ids.length);
    expect(routeTable.map((entry) => entry.id)).toEqual(ids);
    expect(
      Object.keys(liveQueries).filter((key) => !ids.includes(key)),
      'site/route-queries.ts keys that are no route',
    ).toEqual([]);
    expect(
      Object.keys(routeData).filter((key) => !ids.includes(key)),
      'site/routes.build.ts keys that are no route',
    ).toEqual([]);
    expect(
      Object.keys(routeSamples).filter((key) => !ids.includes(key)),
      'tests/unit/site/fixtures.ts samples of no route',
    ).toEqual([]);
  });
});
