import type { ComponentType, ReactNode } from 'react';
import type { ErrorReportingModule } from './error-reporting.ts';
import type { RuntimeGraphQLClient, RuntimeClientOptions } from './graphql-client.ts';
import type { SiteData } from './shared/contract.ts';

/** Which layout wraps a page: `home` for the index page, `default` for every other page. */
export type LayoutName = 'home' | 'default';

export type RouteParams = Record<string, string>;

/** Props every page component receives. */
export interface PageProps<TData = unknown> {
  data: TData;
  params: RouteParams;
}

export interface PageModule {
  // Pages are typed by their own data; the route table erases it at this boundary.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  default: ComponentType<PageProps<any>>;
}

/** Title and description of a page, for `<head>` on the server and `document.title` on navigation. */
export interface PageHead {
  title: string;
  description: string;
  /** Absolute or root-relative image URL for OpenGraph. */
  image?: string;
  /**
   * The page's largest image, fetched from the head before the stylesheet and scripts (a `<link
   * rel="preload" as="image">` with the same srcset and sizes as the `<img>`, so the browser uses it).
   */
  preloadImage?: { href: string; srcset?: string; sizes?: string };
  /** Keep the page out of search engines. */
  noindex?: boolean;
  /** Other formats of the page's content (RSS feeds), as `<link rel="alternate">`; root-relative `href`s. */
  alternates?: readonly { href: string; type: string; title: string }[];
  /**
   * schema.org JSON-LD objects, each rendered as `<script type="application/ld+json">`. Root-relative URLs in
   * the keys `url`, `@id`, `item`, `image`, `logo`, `contentUrl` and `mainEntityOfPage` become absolute.
   */
  structuredData?: readonly Record<string, unknown>[];
}

/**
 * One entry of the browser's route table: enough to match a path, load its page and pick its layout, which
 * is all hydration needs. The rest of a route (RouteDetails) loads after the first render.
 */
export interface RouteTableEntry {
  /** Stable id, the key of the build-side route data (site/routes.build.ts). */
  id: string;
  /** File name (without extension) of the page module under site/pages/ that `load` imports; the build uses it to find the route's chunk. */
  page: string;
  /** Path pattern: static segments and `:name` params, e.g. `/news/:slug`. */
  path: string;
  /** @default 'default' */
  layout?: LayoutName;
  /** Loads the page component; a dynamic import, so every page is its own chunk. */
  load: () => Promise<PageModule>;
}

/** What a route adds to its entry: needed by the build for every page, and by the browser only from the first client navigation on. */
export interface RouteDetails {
  /** Checks the params before anything loads; false is a fatal 404 `Page Not Found: {path}`. */
  validate?: (params: RouteParams, site: SiteData) => boolean;
  /** Head fields from the page's data. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  head: (data: any, params: RouteParams, site: SiteData) => PageHead;
  /**
   * The route's pages compile WebAssembly (the site search): their Content-Security-Policy adds
   * 'wasm-unsafe-eval' to `script-src` (cli/render/csp.ts). No other page's policy allows it. @default false
   */
  webAssembly?: boolean;
}

/** A whole route, as the build renders it (site/routes.ts). */
export interface RouteDefinition extends RouteTableEntry, RouteDetails {}

/** A route's GraphQL query as the browser runs it (editor preview, live data when a payload fails). */
export interface LiveQuery {
  /** The same document the build runs for the route. */
  query: string;
  /** Variables from the route params. @default no variables */
  variables?: (params: RouteParams) => Record<string, unknown>;
}

/**
 * What the browser loads on first use to fetch page data from the API: the site's route queries and the
 * runtime's GraphQL client and rich-text sanitiser. One lazily loaded chunk, so none of it (graphql-request,
 * graphql, DOMPurify) is first-load JavaScript.
 */
export interface LiveDataModule {
  /** Route queries by route id; a route without one always shows the build's data. */
  liveQueries: Readonly<Record<string, LiveQuery | undefined>>;
  createRuntimeClient: (options: RuntimeClientOptions) => RuntimeGraphQLClient;
  /** Cleans the rich-text fields of a result as the build cleans its own, and points `/media/…` URLs at `mediaOrigin`. */
  sanitizeLiveData: <T>(data: T, mediaOrigin?: string) => T;
}

/** Options of a whole route table: the runtime's optional parts, each a dynamic import of its own chunk. */
export interface RouteTableOptions {
  /** Loads the live-data module. Without it pages only ever show the build's data. */
  readonly live?: () => Promise<LiveDataModule>;
  /** Loads error reporting (runtime/sentry.ts), started only when the build has a DSN. Without it nothing is reported. */
  readonly errorReporting?: () => Promise<ErrorReportingModule>;
  /**
   * Loads the whole routes (entries with their checks and heads) for a table of entries only. The browser
   * loads them after the first render, so head fields and structured data are never first-load JavaScript.
   * Without it the table's own entries must be whole routes.
   */
  readonly definitions?: () => Promise<readonly RouteDefinition[]>;
}

export interface LayoutProps {
  children: ReactNode;
}

export type Layouts = Record<LayoutName, ComponentType<LayoutProps>>;

/** Types a route table, and attaches the table's options (the loaders of its optional chunks) to it. */
export function defineRoutes<const T extends readonly RouteTableEntry[]>(
  routes: T,
  options: RouteTableOptions = {},
): T & RouteTableOptions {
  return Object.assign(routes, options);
}

export interface RouteMatch<R extends RouteTableEntry = RouteDefinition> {
  route: R;
  params: RouteParams;
}

/**
 * The first route whose pattern matches `pathname`: as many segments, static ones equal ignoring case, each
 * `:name` taking one whole (URI-decoded) segment. Empty segments do not count, so a trailing slash is ignored.
 */
export function findRoute<R extends RouteTableEntry>(routes: readonly R[], pathname: string): RouteMatch<R> | null {
  for (const route of routes) {
    const params = matchPattern(route.path, pathname);
    if (params) return { route, params };
  }
  return null;
}

// --- internal ---

function matchPattern(pattern: string, pathname: string): RouteParams | null {
  const expected = segmentsOf(pattern);
  const actual = segmentsOf(pathname);
  if (expected.length !== actual.length) return null;
  const params: RouteParams = {};
  for (const [i, segment] of expected.entries()) {
    const value = actual[i]!;
    if (segment.startsWith(':')) params[segment.slice(1)] = safeDecode(value);
    else if (segment.toLowerCase() !== value.toLowerCase()) return null;
  }
  return params;
}

function segmentsOf(path: string): string[] {
  return path.split('/').filter(Boolean);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
