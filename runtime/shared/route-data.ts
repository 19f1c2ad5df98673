/**
 * The build-only half of the route table (site/routes.build.ts): how each route gets its data.
 * Only types live here; the build (cli/) runs them, and the browser never imports them.
 */

export type RouteParamsRecord = Record<string, string>;

/** What a route's data functions may call: the build's GraphQL client (retries, de-duplication, token). */
export interface RouteDataContext {
  request<TData>(document: string, variables?: Record<string, unknown>): Promise<TData>;
  /**
   * The same object for every route of one build, though each route gets a context of its own: what
   * several routes derive from the same lists is computed once per build under this key.
   */
  readonly buildKey?: object;
  /**
   * Whether the build wants the page with these params. Absent when it wants every page; a shard
   * (`site build --shard i/n`) wants its share only. Entries may then list the other pages' params
   * without their data, or leave them out: the build drops them either way.
   */
  readonly wants?: (params: RouteParamsRecord) => boolean;
  /**
   * Present in an update in place that knows from the backend's change feed what changed since the
   * previous build: whether the previous build's page with these params may be kept as it is, unasked.
   * True when that build had the page with the same `key` (RouteEntry.key), no item its data held (an
   * object with an `id`) changed since, and every changed type's objects carry their `id` in the route's
   * query. Entries that ask it yield such a page as `{ params, key, unchanged: true }`, without data;
   * entries that never ask it still give every page's data, which the build compares.
   */
  readonly unchanged?: (params: RouteParamsRecord, key: string) => boolean;
}

/** One page of a dynamic route: its params, and its data when a bulk list query already returned it. */
export interface RouteEntry {
  params: RouteParamsRecord;
  /** The page's data in exactly the shape its `query` returns; omitted → the build runs `query`. */
  data?: unknown;
  /**
   * What the page's data takes from beyond the items it holds, as a string that differs whenever that
   * does: which other items a page shows, in which order (an article's related articles, say). With
   * it, the build remembers the key and the ids of the items in the page's data, and a later update in
   * place can keep the page unasked (`RouteDataContext.unchanged`). '' for a page made of its own item alone.
   */
  key?: string;
  /** The page is the previous build's, as `ctx.unchanged(params, key)` said: it comes without data. */
  unchanged?: true;
}

export interface RouteDataDefinition {
  /** GraphQL document that returns one page's data (also run in the browser for live preview). */
  query: string;
  /** Variables for `query` from the route params. @default no variables */
  variables?: (params: RouteParamsRecord) => Record<string, unknown>;
  /**
   * What of the query's answer the page keeps, at build time: the payload and the render get this, not
   * the whole answer (the browser, running `query` for editor preview, gets the whole answer, so the page
   * must render either alike). For pages that run `query` (static routes, and entries that carry no data);
   * entries that carry their data give it as the page keeps it. @default the whole answer
   */
  select?: (data: never) => unknown;
  /** Every page of a dynamic route (required when the path has params); static routes have one page. */
  entries?: (ctx: RouteDataContext) => AsyncIterable<RouteEntry>;
  /** False when the data says the page does not exist (e.g. a null item): the build fails for that page. @default always true */
  exists?: (data: never) => boolean;
  /** Last modification (ISO-8601) for sitemap.xml. */
  lastmod?: (data: never) => string | undefined;
  /**
   * What the page gives the site search (cli/render/search-documents.ts): one entry for the page itself,
   * entries for the items a list or directory shows (each person of the people page), or none. A route
   * without it (lists, pagination, the login form) is left out of the search. @default not searchable
   */
  search?: (data: never, params: RouteParamsRecord, site: Record<string, unknown>) => SearchEntry | readonly SearchEntry[] | null;
}

/** One result the site search can find: a page, or an item shown on one. */
export interface SearchEntry {
  /** The section the search page filters by: `news`, `events`, `people`… */
  section: string;
  title: string;
  /**
   * Where the result leads: the page itself by default; `#id` for an element of the page (the page's path
   * is put before it); or another site path (a document's file).
   */
  url?: string;
  /**
   * The text that is searched. Omitted: the page's rendered main content (its `<main>`, less what the
   * site's `search.exclude` selectors name), so a page is found by what a visitor reads on it.
   */
  text?: string;
  /** ISO-8601 date or date-time shown with the result. */
  date?: string;
  /** The year the search page filters by. @default the year of `date` */
  year?: string;
  /** Root-relative image URL shown with the result. */
  image?: string;
}

/** The layout-level query, run once per build; its result is inlined into every page as SiteData. */
export interface SiteDataDefinition {
  query: string;
}

/**
 * The backend's change feed (site/routes.build.ts `changeFeed`): what changed since a cursor the build
 * kept from the previous build. `query` takes one variable, `since` (null: only the current cursor);
 * `read` turns its result into the answer below. A backend without a feed leaves `changeFeed` out, and
 * every incremental build asks for every page and compares its data (docs/content-backend.md).
 */
export interface ChangeFeedDefinition {
  query: string;
  read(result: unknown): ChangeFeedAnswer;
  /**
   * The changes' ids are the items' `id` as the site's queries select them. With it, an update in place
   * keeps pages item by item (RouteDataContext.unchanged); without it, every page of a route a change
   * reaches is asked for and compared, whatever ids the feed gives.
   */
  itemIds?: boolean;
}

/** What the backend answered: the changes since the cursor, in order, and the cursor to ask from next time. */
export interface ChangeFeedAnswer {
  cursor: string;
  /** The cursor is unknown or older than the history the backend keeps: everything may have changed. */
  expired: boolean;
  changes: readonly ContentChange[];
}

/** One change to one item. `type` is the item's GraphQL type name, as in site/schema.graphql. */
export interface ContentChange {
  type: string;
  id: string;
  kind: 'upsert' | 'delete';
}

/** Identity helper that types the build-side route table, keyed by route id. */
export function defineRouteData<const T extends Record<string, RouteDataDefinition>>(table: T): T {
  return table;
}

/** One built page as extra outputs see it. */
export interface BuiltPage {
  path: string;
  routeId: string;
  params: RouteParamsRecord;
  /** The page's data, after sanitising. */
  data: unknown;
}

/** What an extra output (feeds, calendars…) knows from the start of a build. */
export interface OutputContext {
  site: Record<string, unknown>;
  /** Absolute site URL without a trailing slash. */
  baseUrl: string;
  /** ISO-8601 build time (SOURCE_DATE_EPOCH when set). */
  buildTime: string;
}

/** A file an extra output writes, relative to the site root. */
export interface OutputFile {
  file: string;
  content: string;
}

/** A page an update in place keeps from the previous build without reading its data back. */
export interface KeptPage {
  path: string;
  routeId: string;
  params: RouteParamsRecord;
}

/** What an output may read when it writes its files: any built page's data, by its path. */
export interface BuiltPages {
  /** The page's data as the build wrote it (read back, and checked, for a page kept from the previous build). */
  data(path: string): Promise<unknown>;
}

/**
 * One build's run of an extra output. Pages stream from the backend to the disk and are never all held
 * at once, so an output sees each page as it is built and keeps only what its files need (a feed's
 * newest items, a calendar's events), then writes its files when every page is built.
 *
 * An update in place keeps most pages as the previous build wrote them. An output with `kept` lets the
 * build leave those unread: `page` returns a note, a small JSON value of what the output keeps of that
 * page (a date to rank it by, a calendar's event), which the build state remembers with the page, and
 * a kept page is handed to `kept` with its note instead of to `page` with its data; where `files` needs
 * more of a page than its note, `pages.data(path)` reads it. The note must hold all `kept` needs to
 * give the same files as `page` would with the data. An output without `kept` sees every page's data.
 */
export interface OutputCollector {
  page(page: BuiltPage): unknown;
  kept?(note: unknown, page: KeptPage): void;
  files(pages: BuiltPages): Iterable<OutputFile> | Promise<Iterable<OutputFile>>;
}

/** Site-specific outputs beyond pages (site/outputs.build.ts): feeds, calendar files and the like. */
export type OutputDefinition = (ctx: OutputContext) => OutputCollector;
