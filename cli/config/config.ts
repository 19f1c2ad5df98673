import { availableParallelism } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { ClientConfig } from '../../runtime/shared/contract.ts';
import { isInsecureTokenEndpoint } from '../../runtime/shared/loopback.ts';
import { redactUrl } from '../../runtime/shared/redact-url.ts';
import { build as siteBuildOptions, type SiteBuildOptions } from '../../site/site.config.ts';
import { parseShard, type Shard } from '../build/shard.ts';
import { BuildErrors, createBuildError } from '../errors/errors.ts';
import {
  DEFAULT_IMAGE_FORMATS,
  DEFAULT_IMAGE_MAX_PIXELS,
  DEFAULT_IMAGE_WIDTHS,
  DERIVED_FORMATS,
  FALLBACK_WIDTH,
  type DerivedFormat,
  type ImageService,
  type ImageSettings,
} from '../content/images/image-settings.ts';
import { checkCacheKey } from './cache-key.ts';
import type { LogLevel } from '../terminal/logger.ts';

/** Options a user may set (flags, environment); every field is optional. */
export interface UserConfig {
  /** GraphQL endpoint URL. Env: GRAPHQL_ENDPOINT. @default the embedded sample backend on a free 127.0.0.1 port */
  endpoint?: string;
  /** Bearer token sent to the endpoint at build time. Env: GRAPHQL_TOKEN. @default none */
  token?: string;
  /**
   * GraphQL endpoint the browser calls for editor preview, login and live data. Env: PUBLIC_GRAPHQL_ENDPOINT.
   * @default `endpoint` when one is set; none with the embedded backend (it stops after the build)
   */
  publicEndpoint?: string;
  /** Sentry DSN for error reporting in the browser. Env: SENTRY_DSN. @default none: no reporting */
  sentryDsn?: string;
  /** Output folder. @default 'dist' */
  outDir?: string;
  /** Absolute URL the site is published at, for canonical URLs, sitemap and feeds. Env: SITE_URL. @default the backend's `site.url` */
  baseUrl?: string;
  /** GraphQL requests in flight at once. @default 8 */
  concurrency?: number | string;
  /** Milliseconds before one GraphQL request is abandoned. @default 30000 */
  timeoutMs?: number | string;
  /** Extra attempts for transient GraphQL failures. @default 3 */
  retries?: number | string;
  /** Milliseconds before the first retry; each next one waits twice as long (at most 8 s, with jitter). Retry-After wins. @default 250 */
  retryDelayMs?: number | string;
  /** Accept a build with more than 20% fewer pages than the previous one in the output folder. @default false */
  allowShrink?: boolean;
  /** Milliseconds between the browser's checks for a newer build. @default 3600000 (one hour) */
  buildCheckInterval?: number | string;
  /** @default 'info' */
  logLevel?: LogLevel;
  /** Folder for the build cache (the client bundle, keyed by its inputs). @default '.site-cache' in the project root */
  cacheDir?: string;
  /** Content-check warnings fail the build. @default false */
  strict?: boolean;
  /** Largest page payload in bytes before a payload-budget warning. @default 131072 */
  payloadBudget?: number | string;
  /** Largest media file in bytes the build downloads and re-hosts; a larger one fails the build. @default 104857600 (100 MiB) */
  mediaMaxBytes?: number | string;
  /** Formats of the images' srcset, most preferred first: `webp` or `avif,webp`. @default 'webp' */
  imageFormats?: string;
  /** Largest source image in pixels; a larger one fails the build. @default 100000000 */
  imageMaxPixels?: number | string;
  /** imgproxy's URL: derivatives are made by it instead of the build (key and salt from IMGPROXY_KEY and IMGPROXY_SALT). Env: IMGPROXY_URL. @default none: the build encodes them */
  imageService?: string;
  /** JSON build report file; false: none. @default 'build-report.json' beside the output folder */
  report?: string | false;
  /** Threads that render pages beside the main thread; 0 renders on the main thread only. @default the CPU count less 1, at most 4 (one on 2 CPUs) */
  renderThreads?: number | string;
  /** Render every page, even when the previous build in the output folder could be updated in place. @default false */
  full?: boolean;
  /** Publish drafts too (with an editor's token the backend returns them); without it the build leaves them out. @default false */
  drafts?: boolean;
  /** Give every page a strict Content-Security-Policy meta tag (cli/render/csp.ts). @default true */
  csp?: boolean;
  /** Build the site search's index (cli/output/search-index.ts) into `_search/`. @default true */
  search?: boolean;
  /** A full build into the folder of a previous one hard-links each page file whose bytes are unchanged instead of writing it (docs/decisions/link-unchanged-files.md); false writes every file. Env: SITE_LINK_UNCHANGED=off. @default true */
  linkUnchanged?: boolean;
  /** Delete the output's retired tree in a process of its own that outlives the command, so nobody waits for it; false deletes it before the command ends. Env: SITE_BACKGROUND_CLEANUP=off. @default true */
  backgroundCleanup?: boolean;
  /** Render only this share of the pages, `i/n` (a sharded build; `site build --merge` joins the shards). Env SITE_SHARD, or JOB_COMPLETION_INDEX (0-based) with SITE_SHARD_COUNT. @default none: every page */
  shard?: string;
  /** Render the header and footer once per key and reuse the markup (cli/render/shared-markup-cache.ts); false renders them on every page, to rule the cache out when debugging: the same bytes, slower. Env: SITE_SHARED_MARKUP=off. @default true */
  sharedMarkup?: boolean;
}

/** Fully-defaulted, validated, frozen configuration; stages take only this. */
export interface ResolvedConfig {
  readonly endpoint: string | null;
  readonly token: string | null;
  /** The browser's GraphQL endpoint; null: no editor preview and no live data. */
  readonly publicEndpoint: string | null;
  readonly sentryDsn: string | null;
  readonly outDir: string;
  readonly baseUrl: string | null;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryDelayMs: number;
  readonly allowShrink: boolean;
  readonly buildCheckInterval: number;
  readonly logLevel: LogLevel;
  /** Seconds since the epoch from SOURCE_DATE_EPOCH, for reproducible builds; null → the clock. */
  readonly sourceDateEpoch: number | null;
  /** Repository root (site/, templates/, runtime/). */
  readonly root: string;
  readonly cacheDir: string;
  /** Content-check warnings fail the build (before the output is replaced). */
  readonly strict: boolean;
  /** Payload size in bytes above which a page gets a warning. */
  readonly payloadBudget: number;
  /** Largest media file in bytes; a larger one fails the build, naming it. */
  readonly mediaMaxBytes: number;
  /** The derivatives of raster images (cli/content/images/). */
  readonly images: ImageSettings;
  /** Absolute path of build-report.json; null: no report. */
  readonly reportFile: string | null;
  /** Threads rendering pages beside the main thread (0: none). */
  readonly renderThreads: number;
  /**
   * The count was given (--render-threads, `renderThreads` in site.config.ts): when every page renders,
   * the threads start at once. The default's start only once many pages are to render (cli/build/build.ts).
   */
  readonly renderThreadsGiven: boolean;
  /** Publish drafts on purpose (--drafts); otherwise the build asks for published content and drops any draft. */
  readonly drafts: boolean;
  /** Every page carries the build's Content-Security-Policy. */
  readonly csp: boolean;
  /** The build writes the site search's index (not in a shard: the merge indexes the joined site). */
  readonly search: boolean;
  /** Reuse the markup of parts shared by many pages (header, footer) within the build. */
  readonly sharedMarkup: boolean;
  /** Hard-link page files identical to the previous output's instead of writing them. */
  readonly linkUnchanged: boolean;
  /** Delete the retired output tree in a process that outlives the command. */
  readonly backgroundCleanup: boolean;
  /** This build's share of the pages; null: every page. */
  readonly shard: Shard | null;
  /** Searched pages per partition of the search index (cli/output/search-index.ts). Env: SITE_SEARCH_PARTITION_PAGES (tests use a few dozen). @default 2000 */
  readonly searchPartitionPages: number;
  /** Keep the search index's partitions in the build cache and take them from it (cli/output/search-cache.ts). Env: SITE_SEARCH_CACHE=off. @default true */
  readonly searchCache: boolean;
  /** Update the previous build in the output folder in place, rendering only pages whose inputs changed, when its build id matches. */
  readonly incremental: boolean;
}

export const DEFAULTS = {
  outDir: 'dist',
  concurrency: 8,
  timeoutMs: 30_000,
  retries: 3,
  retryDelayMs: 250,
  allowShrink: false,
  buildCheckInterval: 3_600_000,
  logLevel: 'info',
  strict: false,
  payloadBudget: 128 * 1024,
  mediaMaxBytes: 100 * 1024 * 1024,
  // Rendering is CPU-bound, and so is the main thread (the backend's answers: parsing, sanitising): the
  // main thread keeps one CPU, the others render; beyond 4 threads, the disk limits a build
  // (docs/decisions/render-threads.md).
  renderThreads: Math.min(4, Math.max(0, availableParallelism() - 1)),
} as const satisfies Partial<ResolvedConfig>;

/** The build report's file name; it goes beside the output folder unless --report says otherwise. */
export const REPORT_FILE_NAME = 'build-report.json';

/**
 * Validates user options, the environment and the `build` options of site/site.config.ts once, and fills
 * in defaults. Precedence: flags (`user`) > environment > `file` > DEFAULTS. Throws InvalidOption (exit 2).
 */
export function resolveConfig(
  user: UserConfig,
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
  file: SiteBuildOptions = siteBuildOptions,
): ResolvedConfig {
  const root = resolve(new URL('../..', import.meta.url).pathname);
  user = withFileOptions(user, env, file, root);
  const rawEndpoint = user.endpoint ?? env.GRAPHQL_ENDPOINT;
  const endpoint = rawEndpoint ? checkUrl(user.endpoint ? '--endpoint' : 'GRAPHQL_ENDPOINT', rawEndpoint) : null;
  const token = user.token ?? env.GRAPHQL_TOKEN ?? null;
  // Checked before any request: the token would cross the network in clear.
  if (token && endpoint && isInsecureTokenEndpoint(endpoint)) {
    throw createBuildError(BuildErrors.InvalidOption, [
      user.endpoint ? '--endpoint' : 'GRAPHQL_ENDPOINT',
      redactUrl(endpoint),
      'an https URL, or http to a loopback host (127.0.0.1, ::1, localhost), while GRAPHQL_TOKEN is set: the token is never sent in clear',
    ]);
  }
  checkCacheKey(env);
  const baseUrl = user.baseUrl ?? env.SITE_URL;
  const epoch = env.SOURCE_DATE_EPOCH;
  const dsn = user.sentryDsn || env.SENTRY_DSN;
  const outDir = resolve(cwd, user.outDir ?? DEFAULTS.outDir);
  const shardSpec = user.shard ?? (env.SITE_SHARD || undefined);
  const shard = shardSpec === undefined ? shardOfJob(env) : parseShard(shardSpec);
  const sourceDateEpoch = epoch === undefined || epoch === '' ? null : checkInteger('SOURCE_DATE_EPOCH', epoch, 0, 2 ** 40);
  if (shard && sourceDateEpoch === null) throw createBuildError(BuildErrors.ShardTimestampMissing, [`${shard.index}/${shard.count}`]);
  return Object.freeze({
    endpoint,
    token,
    publicEndpoint: resolvePublicEndpoint(user, env, endpoint),
    sentryDsn: dsn ? checkDsn(dsn) : null,
    outDir,
    baseUrl: baseUrl ? checkUrl(user.baseUrl ? '--base-url' : 'SITE_URL', baseUrl).replace(/\/+$/, '') : null,
    concurrency: checkInteger('--concurrency', user.concurrency ?? DEFAULTS.concurrency, 1, 256),
    timeoutMs: checkInteger('--timeout', user.timeoutMs ?? DEFAULTS.timeoutMs, 1, 600_000),
    retries: checkInteger('--retries', user.retries ?? DEFAULTS.retries, 0, 20),
    retryDelayMs: checkInteger('--retry-delay', user.retryDelayMs ?? DEFAULTS.retryDelayMs, 0, 60_000),
    allowShrink: user.allowShrink ?? DEFAULTS.allowShrink,
    buildCheckInterval: checkInteger('--build-check-interval', user.buildCheckInterval ?? DEFAULTS.buildCheckInterval, 1000, 2 ** 31 - 1),
    logLevel: user.logLevel ?? DEFAULTS.logLevel,
    sourceDateEpoch,
    root,
    cacheDir: resolve(cwd, user.cacheDir ?? join(root, '.site-cache')),
    strict: user.strict ?? DEFAULTS.strict,
    payloadBudget: checkInteger('--payload-budget', user.payloadBudget ?? DEFAULTS.payloadBudget, 1, 2 ** 31 - 1),
    mediaMaxBytes: checkInteger('--media-max-bytes', user.mediaMaxBytes ?? DEFAULTS.mediaMaxBytes, 1, 2 ** 42),
    images: resolveImages(user, env),
    drafts: user.drafts ?? false,
    csp: user.csp ?? true,
    search: user.search ?? true,
    sharedMarkup: env.SITE_SHARED_MARKUP ? env.SITE_SHARED_MARKUP !== 'off' : (user.sharedMarkup ?? true),
    linkUnchanged: env.SITE_LINK_UNCHANGED ? env.SITE_LINK_UNCHANGED !== 'off' : (user.linkUnchanged ?? true),
    backgroundCleanup: env.SITE_BACKGROUND_CLEANUP ? env.SITE_BACKGROUND_CLEANUP !== 'off' : (user.backgroundCleanup ?? true),
    searchPartitionPages: searchPartitionPagesOf(env.SITE_SEARCH_PARTITION_PAGES),
    searchCache: env.SITE_SEARCH_CACHE !== 'off',
    // A shard is rendered in full: its folder is one part of a build, not a build to update in place.
    incremental: !user.full && !shard,
    shard,
    renderThreads: checkInteger('--render-threads', user.renderThreads ?? DEFAULTS.renderThreads, 0, 64),
    renderThreadsGiven: user.renderThreads !== undefined,
    reportFile: user.report === false ? null : resolve(cwd, user.report ?? join(dirname(outDir), REPORT_FILE_NAME)),
  });
}

/** The options every page's boot data carries to the browser; the build's token is never among them. */
export function clientConfigOf(config: Pick<ResolvedConfig, 'buildCheckInterval' | 'publicEndpoint' | 'sentryDsn'>): ClientConfig {
  return { buildCheckInterval: config.buildCheckInterval, graphqlEndpoint: config.publicEndpoint, sentryDsn: config.sentryDsn };
}

/** Validates an integer option in p-limit's style. */
export function checkInteger(name: string, value: number | string, min: number, max: number): number {
  const n = typeof value === 'number' ? value : /^-?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw createBuildError(BuildErrors.InvalidOption, [name, String(value), `an integer from ${min} to ${max}`]);
  }
  return n;
}

// --- internal ---

/** Environment variables that override a field of site.config.ts (flags override both). */
const ENV_OF: Partial<Record<keyof SiteBuildOptions, string>> = {
  imageService: 'IMGPROXY_URL',
  endpoint: 'GRAPHQL_ENDPOINT',
  publicEndpoint: 'PUBLIC_GRAPHQL_ENDPOINT',
  baseUrl: 'SITE_URL',
  sentryDsn: 'SENTRY_DSN',
  sharedMarkup: 'SITE_SHARED_MARKUP',
  linkUnchanged: 'SITE_LINK_UNCHANGED',
  backgroundCleanup: 'SITE_BACKGROUND_CLEANUP',
};
const PATH_FIELDS: ReadonlySet<string> = new Set(['outDir', 'cacheDir', 'report']);
const URL_FIELDS: ReadonlySet<string> = new Set(['endpoint', 'publicEndpoint', 'baseUrl']);

/**
 * Searched pages per partition. Pagefind ranks a partition's results with its own word statistics, which
 * a few thousand pages drawn at random from the site estimate as well as the whole site does; a site under
 * this size has one index, as before partitions. Anything but a positive integer keeps the default.
 */
function searchPartitionPagesOf(value: string | undefined): number {
  const given = Number(value);
  return Number.isInteger(given) && given > 0 ? given : 2000;
}

/** An indexed Job's shard: JOB_COMPLETION_INDEX (0-based) with SITE_SHARD_COUNT; null without an index. */
export function shardOfJob(env: Record<string, string | undefined>): Shard | null {
  if (env.JOB_COMPLETION_INDEX === undefined || env.JOB_COMPLETION_INDEX === '') return null;
  const count = Number(env.SITE_SHARD_COUNT);
  const index = Number(env.JOB_COMPLETION_INDEX) + 1;
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(index) || index < 1 || index > count) {
    throw createBuildError(BuildErrors.InvalidOption, [
      'JOB_COMPLETION_INDEX with SITE_SHARD_COUNT',
      `${env.JOB_COMPLETION_INDEX} of ${env.SITE_SHARD_COUNT ?? '(unset)'}`,
      'an index from 0 to SITE_SHARD_COUNT - 1, with SITE_SHARD_COUNT the number of shards',
    ]);
  }
  return { index, count };
}

/** Fills the fields no flag and no environment variable sets from site.config.ts, its paths made absolute against the project root. */
function withFileOptions(user: UserConfig, env: Record<string, string | undefined>, file: SiteBuildOptions, root: string): UserConfig {
  const merged: Record<string, unknown> = { ...user };
  for (const [key, value] of Object.entries(file) as [keyof SiteBuildOptions, unknown][]) {
    const envName = ENV_OF[key];
    if (value === undefined || merged[key] !== undefined || (envName && env[envName])) continue;
    const name = `build.${key} in site/site.config.ts`;
    if (typeof value === 'number') checkInteger(name, value, 0, 2 ** 31 - 1);
    if (URL_FIELDS.has(key)) (key === 'publicEndpoint' ? checkPublicUrl : checkUrl)(name, String(value));
    merged[key] = PATH_FIELDS.has(key) && typeof value === 'string' && !isAbsolute(value) ? join(root, value) : value;
  }
  return merged as UserConfig;
}

/** The image settings: formats and pixel limit from flags or site.config.ts, an image service from the environment. */
function resolveImages(user: UserConfig, env: Record<string, string | undefined>): ImageSettings {
  const formats = (user.imageFormats ?? DEFAULT_IMAGE_FORMATS.join(','))
    .split(',')
    .map((f) => f.trim().toLowerCase())
    .filter(Boolean);
  if (
    formats.length === 0 ||
    formats.some((f) => !DERIVED_FORMATS.includes(f as DerivedFormat)) ||
    new Set(formats).size !== formats.length
  ) {
    throw createBuildError(BuildErrors.InvalidOption, [
      '--image-formats',
      String(user.imageFormats),
      `a comma-separated list of ${DERIVED_FORMATS.join(' and ')}, most preferred first (webp, or avif,webp)`,
    ]);
  }
  const serviceUrl = user.imageService ?? env.IMGPROXY_URL;
  let service: ImageService | null = null;
  if (serviceUrl) {
    const name = user.imageService ? '--image-service' : 'IMGPROXY_URL';
    const url = checkUrl(name, serviceUrl).replace(/\/+$/, '');
    const hex = (variable: 'IMGPROXY_KEY' | 'IMGPROXY_SALT'): Buffer => {
      const value = env[variable] ?? '';
      if (!/^(?:[0-9a-fA-F]{2})+$/.test(value)) {
        throw createBuildError(BuildErrors.InvalidOption, [
          variable,
          value ? '(set, not shown)' : '(not set)',
          `imgproxy's ${variable === 'IMGPROXY_KEY' ? 'key' : 'salt'} in hex, as the service has it, while ${name} is set`,
        ]);
      }
      return Buffer.from(value, 'hex');
    };
    service = { kind: 'imgproxy', url, key: hex('IMGPROXY_KEY'), salt: hex('IMGPROXY_SALT') };
  }
  return {
    widths: DEFAULT_IMAGE_WIDTHS,
    formats: formats as DerivedFormat[],
    fallbackWidth: FALLBACK_WIDTH,
    maxPixels: checkInteger('--image-max-pixels', user.imageMaxPixels ?? DEFAULT_IMAGE_MAX_PIXELS, 1, 2 ** 40),
    service,
  };
}

function resolvePublicEndpoint(user: UserConfig, env: Record<string, string | undefined>, endpoint: string | null): string | null {
  if (user.publicEndpoint) return checkPublicUrl('--public-endpoint', user.publicEndpoint);
  if (env.PUBLIC_GRAPHQL_ENDPOINT) return checkPublicUrl('PUBLIC_GRAPHQL_ENDPOINT', env.PUBLIC_GRAPHQL_ENDPOINT);
  // The build endpoint is what the browser calls too, unless it is the embedded backend, which stops after the build.
  return endpoint === null ? null : checkPublicUrl('--public-endpoint (which defaults to --endpoint)', endpoint);
}

/** The browser's endpoint is written into every page: user info or a query string there (credentials, a token) would be published. */
function checkPublicUrl(name: string, value: string): string {
  const href = checkUrl(name, value);
  const url = new URL(href);
  if (url.username || url.password || url.search) {
    throw createBuildError(BuildErrors.InvalidOption, [
      name,
      redactUrl(value),
      'a URL without user info or query string (it is written into every page); pass the credentials another way, or set --public-endpoint to a URL without them',
    ]);
  }
  return href;
}

/** A Sentry DSN: `https://{publicKey}@{host}/{projectId}`. */
function checkDsn(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.username || !/^\/(?:.*\/)?\d+$/.test(url.pathname)) {
    throw createBuildError(BuildErrors.InvalidOption, [
      'SENTRY_DSN',
      value,
      'a Sentry DSN such as https://publickey@o0.ingest.sentry.io/1',
    ]);
  }
  return value;
}

export function checkUrl(name: string, value: string): string {
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw createBuildError(BuildErrors.InvalidOption, [
      name,
      redactUrl(value),
      'an absolute http(s) URL such as http://127.0.0.1:4000/graphql',
    ]);
  }
  return url.href;
}
