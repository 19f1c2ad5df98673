/**
 * The on-disk contract between the build (cli/) and the browser (runtime/).
 * One source of truth: both sides import these types, so writer and reader cannot drift apart.
 */

/** Bumped whenever the payload shape changes; a reader rejects any other version. */
export const PAYLOAD_VERSION = 1;

/** Where the bundle, build meta and latest-build files live, relative to the site root. */
export const ASSETS_DIR = '_assets';

/** Where the site search's index lives (cli/output/search-index.ts), relative to the site root; the search page loads `pagefind.js` from it. */
export const SEARCH_DIR = '_search';

/** The list of the index's other partitions (`["/_search/part-1/", …]`, often none), which the search page merges into `_search/`'s. */
export const SEARCH_PARTS_FILE = `${SEARCH_DIR}/parts.json`;

/** `{path}/_payload.json`: one prerendered page's data, fetched on client navigation. */
export interface Payload<TData = unknown> {
  /** Always PAYLOAD_VERSION. */
  v: number;
  /** The build that wrote this payload; a mismatch with the running build means the client is stale. */
  buildId: string;
  /** Normalised page path, e.g. `/news/some-slug` (no trailing slash, `/` for home). */
  path: string;
  /** The page's data: the result of its GraphQL query. */
  data: TData;
  /** ISO-8601 time of the build (SOURCE_DATE_EPOCH when set). */
  prerenderedAt: string;
}

/** A page-level error rendered as the full-page error screen. */
export interface PageError {
  /** HTTP-like status: 404 for missing pages, 500 otherwise. */
  status: number;
  /** Developer-facing message, e.g. `Page not found: /x`; 404 screens show a fixed sentence instead. */
  message: string;
  /** Fatal errors come from a failed route validation or a crash; non-fatal from an unmatched path. */
  fatal: boolean;
}

/** Layout-level data every page shares (navigation, footer, contact); inlined once per HTML file. */
export type SiteData = Record<string, unknown>;

/** Inlined into every HTML file as `<script type="application/json" id="__BOOT__">`. */
export interface BootData {
  buildId: string;
  /** The page's path, or null for 404.html (the browser's location is used instead). */
  path: string | null;
  /** Route id from the route table, or null when the page is an error page. */
  routeId: string | null;
  data: unknown;
  site: SiteData;
  error: PageError | null;
  /** Client options resolved at build time. */
  config: ClientConfig;
}

/** Runtime options decided at build time. */
export interface ClientConfig {
  /** Milliseconds between checks of builds/latest.json. */
  buildCheckInterval: number;
  /**
   * The public GraphQL endpoint the browser calls (editor preview, login, live data when a payload cannot
   * be loaded), or null: pages then only ever show the build's data. Never the build's own token.
   */
  graphqlEndpoint: string | null;
  /** Sentry DSN for error reporting, or null: nothing is reported and the Sentry SDK is never loaded. */
  sentryDsn: string | null;
}

/** Route rules: what navigation to a matching path does instead of loading a page. */
export interface RouteRule {
  /** Redirect target: an absolute URL (full browser redirect) or a site path (client-side redirect). */
  redirect?: string;
  /** True for paths that were prerendered. */
  prerender?: boolean;
}

/** `{assets}/builds/meta/{buildId}.json`: the route-rules manifest. */
export interface BuildMeta {
  id: string;
  /** Build time in milliseconds since the epoch. */
  timestamp: number;
  /** Route rules keyed by path pattern: an exact path, or a prefix ending in `/**`. */
  matcher: Record<string, RouteRule>;
  /** Every path that has a payload. */
  prerendered: string[];
  /** Per route id, the script files its page needs (its chunk and the chunks that imports), for prefetching. */
  chunks: Record<string, string[]>;
}

/** `{assets}/builds/latest.json`: written last; names the newest complete build. */
export interface LatestBuild {
  id: string;
  timestamp: number;
}
