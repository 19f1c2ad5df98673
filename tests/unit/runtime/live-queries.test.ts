import { readFileSync } from 'node:fs';
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { VIEWER_QUERY } from '../../../runtime/live-api.ts';
import type { RouteDefinition } from '../../../runtime/routes.ts';
import type { RouteDataDefinition } from '../../../runtime/shared/route-data.ts';
import { LOGIN_MUTATION } from '../../../site/pages/login.tsx';
import { liveQueries } from '../../../site/route-queries.ts';
import { routeData as siteRouteData } from '../../../site/routes.build.ts';
import { routes } from '../../../site/routes.ts';

const schema = buildSchema(readFileSync(new URL('../../../site/schema.graphql', import.meta.url), 'utf8'));
const routeData: Readonly<Record<string, RouteDataDefinition>> = siteRouteData;
const live: Readonly<Record<string, { query: string; variables?: unknown }>> = liveQueries;

describe("the routes' live queries", () => {
  it('belong to routes of the route table', () => {
    const ids = new Set(routes.map((r: RouteDefinition) => r.id));
    for (const id of Object.keys(live)) expect(ids.has(id), id).toBe(true);
  });

  it('are the very queries and variables the build runs for those routes', () => {
    for (const [id, query] of Object.entries(live)) {
      expect(routeData[id]?.query, id).toBe(query.query);
      expect(routeData[id]?.variables, id).toBe(query.variables);
    }
  });

  it('cover every route whose data follows from its URL, so preview and payload fallback reach every kind of page', () => {
    const cutFromLists = routes.filter((r) => r.path.includes('/page/:page')).map((r) => r.id);
    // The login form and the search page have no content of their own to preview.
    const expected = routes.map((r) => r.id).filter((id) => !cutFromLists.includes(id) && id !== 'login' && id !== 'search');
    expect(Object.keys(live).sort()).toEqual(expected.sort());
  });

  it.each([
    ['the login mutation', LOGIN_MUTATION],
    ['the viewer query', VIEWER_QUERY],
    ['the logout mutation', 'mutation Logout { logout }'],
    ['the login page query', routeData.login?.query ?? ''],
  ])('%s validates against the content schema', (_name, document) => {
    expect(validate(schema, parse(document)).map((e) => e.message)).toEqual([]);
  });
});

describe('the login route', () => {
  const login = routes.find((r: RouteDefinition) => r.id === 'login');

  it('is /login and keeps itself out of search engines and the sitemap', () => {
    expect(login?.path).toBe('/login');
    expect(login?.head(null, {}, {}).noindex).toBe(true);
  });
});

describe('the route table', () => {
  it('names the live-data chunk: the route queries, the GraphQL client and the sanitiser', async () => {
    const module = await routes.live?.();
    expect(module?.liveQueries).toBe(liveQueries);
    expect(typeof module?.createRuntimeClient).toBe('function');
    expect(typeof module?.sanitizeLiveData).toBe('function');
  });

  it('names the Sentry chunk', async () => {
    expect(typeof (await routes.errorReporting?.())?.initSentry).toBe('function');
  });
});
