/**
 * The build-only half of the route table (site/routes.build.ts): how each route gets its data.
 * Only types live here; the build (cli/) runs them, and the browser never imports them.
 */

export type RouteParamsRecord = Record<string, string>;

/** What a route's data functions may call: the build's GraphQL client (retries, de-duplication, token). */
export interface RouteDataContext {
  request<TData>(document: string, variables?: Record<string, unknown>): Promise<TData>;
}

/** One page of a dynamic route: its params, and its data when a bulk list query already returned it. */
export interface RouteEntry {
  params: RouteParamsRecord;
  /** The page's data in exactly the shape its `query` returns; omitted → the build runs `query`. */
  data?: unknown;
}

export interface RouteDataDefinition {
  /** GraphQL document that returns one page's data (also run in the browser for live preview). */
  query: string;
  /** Variables for `query` from the route params. @default no variables */
  variables?: (params: RouteParamsRecord) => Record<string, unknown>;
  /** Every page of a dynamic route (required when the path has params); static routes have one page. */
  entries?: (ctx: RouteDataContext) => AsyncIterable<RouteEntry>;
  /** False when the data says the page does not exist (e.g. a null item): the build fails for that page. @default always true */
  exists?: (data: never) => boolean;
  /** Last modification (ISO-8601) for sitemap.xml. */
  lastmod?: (data: never) => string | undefined;
}

/** The layout-level query, run once per build; its result is inlined into every page as SiteData. */
export interface SiteDataDefinition {
  query: string;
}

/** Identity helper that types the build-side route table, keyed by route id. */
export function defineRouteData<const T extends Record<string, RouteDataDefinition>>(table: T): T {
  return table;
}
