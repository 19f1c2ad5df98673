import { describe, expect, it } from 'vitest';
import { findRoute, type RouteTableEntry } from '../../../runtime/routes.ts';
import { routeTable as siteRouteTable } from '../../../site/route-table.ts';
import { browserRoutes } from '../../../site/browser-routes.ts';
import { routes } from '../../../site/routes.ts';

// As the runtime sees it: the literal types of the table do not matter here.
const routeTable: readonly RouteTableEntry[] = siteRouteTable;
const ENTRY_FIELDS = ['id', 'layout', 'load', 'page', 'path'];

describe("the browser's route table (site/route-table.ts)", () => {
  it('holds only what hydrating a page needs, so no head fields, structured data or checks are first-load JavaScript', () => {
    for (const entry of routeTable)
      expect(
        Object.keys(entry).filter((key) => !ENTRY_FIELDS.includes(key)),
        entry.id,
      ).toEqual([]);
  });

  it('loads the whole routes after the first render: the same entries, in the same order, with their checks and heads', async () => {
    expect(siteRouteTable.definitions).toBeUndefined();
    const whole = await browserRoutes.definitions?.();
    expect(whole).toBe(routes);
    expect(whole?.map((r) => [r.id, r.path, r.page, r.layout, r.load])).toEqual(
      routeTable.map((r) => [r.id, r.path, r.page, r.layout, r.load]),
    );
    for (const route of whole ?? []) expect(typeof route.head, route.id).toBe('function');
  });
});

describe('matching a path to a route', () => {
  const table: RouteTableEntry[] = ['/news', '/news/page/:page', '/news/:slug', '/events/:category/:slug'].map((path) => ({
    id: path,
    page: 'p',
    path,
    load: () => Promise.reject(new Error('not loaded in this test')),
  }));
  const match = (path: string): [string, Record<string, string>] | null => {
    const found = findRoute(table, path);
    return found ? [found.route.id, found.params] : null;
  };

  it('takes the first route whose static segments equal the path’s, ignoring case, and one segment per param', () => {
    expect(match('/news/page/2')).toEqual(['/news/page/:page', { page: '2' }]);
    expect(match('/News/hello')).toEqual(['/news/:slug', { slug: 'hello' }]);
    expect(match('/events/talks/a-b')).toEqual(['/events/:category/:slug', { category: 'talks', slug: 'a-b' }]);
  });

  it('decodes params, ignores a trailing slash and matches nothing with more or fewer segments', () => {
    expect(match('/news/caf%C3%A9/')).toEqual(['/news/:slug', { slug: 'café' }]);
    expect(match('/news/%E0%A4%A')).toEqual(['/news/:slug', { slug: '%E0%A4%A' }]);
    expect(match('/news/a/b')).toBeNull();
    expect(match('/events/talks')).toBeNull();
    expect(match('/')).toBeNull();
  });
});
