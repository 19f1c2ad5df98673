import type { RouteRule } from '../runtime/shared/contract.ts';
import { IMAGE_SLOTS } from './components/image.tsx';

/**
 * Route rules of the institute site, published in the build's route manifest
 * (builds/meta/{buildId}.json → matcher) and applied by the runtime on navigation.
 * Keys are exact paths or prefixes ending in `/**`. A redirect to an absolute URL is a full browser
 * redirect; one to a site path is a client-side redirect. The build also writes a small HTML page at
 * each exact redirect path, so a first visit (or a visitor without JavaScript) is redirected too.
 */
export const routeRules: Readonly<Record<string, RouteRule>> = {
  // The old name of the people directory, still linked from printed material.
  '/about/team': { redirect: '/about/people' },
  '/contact': { redirect: '/about/contact' },
  // The library catalogue is a separate system.
  '/library': { redirect: 'https://library.institute.example/' },
};

/**
 * How the site is built. Every field is optional; a missing one takes the default named here. The
 * environment variables named beside a field override it, and command-line flags override both
 * (`site build --help` lists the flags). Relative paths are relative to the project root.
 */
export interface SiteBuildOptions {
  /** GraphQL endpoint the build queries. Env GRAPHQL_ENDPOINT, flag --endpoint. @default the embedded sample backend on a free 127.0.0.1 port */
  endpoint?: string;
  /**
   * GraphQL endpoint browsers call for editor preview, login and live data. Env PUBLIC_GRAPHQL_ENDPOINT, flag --public-endpoint.
   * @default `endpoint` when one is set; none with the embedded backend (it stops after the build)
   */
  publicEndpoint?: string;
  /** Absolute URL the site is published at (canonical URLs, sitemap, feeds). Env SITE_URL, flag --base-url. @default the backend's `site.url` */
  baseUrl?: string;
  /** Sentry DSN for error reporting in the browser. Env SENTRY_DSN. @default none: no reporting */
  sentryDsn?: string;
  /** Output folder. Flag --out. @default 'dist' */
  outDir?: string;
  /** GraphQL requests in flight at once. Flag --concurrency. @default 8 */
  concurrency?: number;
  /** Milliseconds before one GraphQL request is abandoned. Flag --timeout. @default 30000 */
  timeoutMs?: number;
  /** Extra attempts for transient GraphQL failures (network, 408, 429, 5xx). Flag --retries. @default 3 */
  retries?: number;
  /** Milliseconds before the first retry, doubling per attempt (a server's Retry-After wins). Flag --retry-delay. @default 250 */
  retryDelayMs?: number;
  /** Milliseconds between an open page's checks for a newer build. Flag --build-check-interval. @default 3600000 (one hour) */
  buildCheckInterval?: number;
  /** Build cache folder (the client bundle, reused while the code is unchanged). Flag --cache-dir. @default '.site-cache' */
  cacheDir?: string;
  /** Content-check warnings (broken links and anchors, missing alt text, duplicate titles, payloads over budget) fail the build. Flag --strict. @default false */
  strict?: boolean;
  /** Largest `_payload.json` in bytes before a page gets a payload-budget warning. Flag --payload-budget. @default 131072 (128 KiB) */
  payloadBudget?: number;
  /** Largest media file in bytes the build downloads and re-hosts; a larger one fails the build. Flag --media-max-bytes. @default 104857600 (100 MiB) */
  mediaMaxBytes?: number;
  /** Publish drafts too (the backend returns them to an editor's token). Flag --drafts. @default false */
  drafts?: boolean;
  /** Give every page a strict Content-Security-Policy meta tag (see docs/reliability.md). Flag --no-csp. @default true */
  csp?: boolean;
  /** Build the site search's index into `_search/` (see docs/output-format.md). Flag --no-search. @default true */
  search?: boolean;
  /** Formats of the images' srcset, most preferred first: 'webp' or 'avif,webp' (docs/decisions/image-derivatives.md). Flag --image-formats. @default 'webp' */
  imageFormats?: string;
  /** Largest source image in pixels; a larger one fails the build. Flag --image-max-pixels. @default 100000000 */
  imageMaxPixels?: number;
  /** imgproxy's URL, to have it make the derivatives instead of the build; IMGPROXY_KEY and IMGPROXY_SALT (hex) sign them. Env IMGPROXY_URL, flag --image-service. @default none */
  imageService?: string;
  /** Where the JSON build report goes; false writes none. Flag --report, --no-report. @default 'build-report.json' beside the output folder */
  report?: string | false;
  /** Threads that render pages beside the main thread; 0 renders on the main thread only. Flag --render-threads. @default the CPU count less 1, at most 4 (one on 2 CPUs) */
  renderThreads?: number;
  /** Render every page, even when the previous build in the output folder could be updated in place. Flag --full. @default false */
  full?: boolean;
  /** Reuse the markup of the header and footer across pages; false renders them on every page (the same bytes, slower), to rule the cache out when debugging. Env SITE_SHARED_MARKUP=off. @default true */
  sharedMarkup?: boolean;
  /** A full build into the previous output folder hard-links each unchanged page file instead of writing it; false writes every file. Env SITE_LINK_UNCHANGED=off. @default true */
  linkUnchanged?: boolean;
  /** Delete the output's retired tree in a process of its own that outlives the command; false deletes it before the command ends. Env SITE_BACKGROUND_CLEANUP=off. @default true */
  backgroundCleanup?: boolean;
}

/**
 * What the site search indexes of a page's main content: all of it but these parts (CSS selectors), the
 * trails and menus every page of a section shares and the lists of other items, which would make a page
 * a result for its neighbours' titles. Which routes are searched, and as what, is `search` in
 * site/routes.build.ts.
 */
export const search: { exclude: readonly string[] } = {
  exclude: ['nav', '.breadcrumbs', '.page-header__kicker', '.related', '.pagination', '.directory', '.visually-hidden'],
};

/** How images inside rich text show (the build writes their srcset): the `inline` slot of components/image.tsx. */
export const images: { richTextSizes: string } = { richTextSizes: IMAGE_SLOTS.inline.sizes };

/** The institute site builds with the defaults; set a field here to change it for every build. */
export const build: SiteBuildOptions = {};
