import type { RouteDefinition, RouteParams } from '../../runtime/routes.ts';
import { isGraphQLRequestError } from '../../runtime/shared/graphql.ts';
import type { RouteDataContext, RouteDataDefinition } from '../../runtime/shared/route-data.ts';
import { htmlFileFor } from '../../runtime/shared/paths.ts';
import { BuildErrors, createBuildError, type PageFailure } from '../errors/errors.ts';
import { describeCause, fixFor } from '../errors/format-error.ts';
import { readAhead, type ReadAhead } from './read-ahead.ts';
import { findBadSlug, findItemId, quoteSlug } from './slugs.ts';

/** What a crawl leaves out and tells. */
export interface CrawlOptions {
  /** Routes not crawled at all (a build with a change feed keeps their pages: build/incremental/changed-routes.ts). */
  skip?: (routeId: string) => boolean;
  /** Called with each document a route's entries send, to learn which content types the route reads. */
  onDocument?: (routeId: string, document: string) => void;
  /**
   * Only the pages it accepts are handed on (a shard's share), and each route's entries are told which
   * params are wanted (`ctx.wants`), so they need not fetch the data of the others. @default every page
   */
  keep?: KeepPage;
  /**
   * In an update in place that follows the change feed: for a route, whether its previous page with these
   * params and key may be kept unasked (`ctx.unchanged`, build/incremental/changed-routes.ts); undefined for a route
   * whose pages are all asked for. Each page an entry then gives as unchanged goes to `onUnchanged`.
   */
  unchanged?: (routeId: string) => ((path: string, key: string) => boolean) | undefined;
  onUnchanged?: (routeId: string, path: string) => void;
}

/** One page to build. */
export interface PageJob {
  route: RouteDefinition;
  path: string;
  params: RouteParams;
  /** Present when the route's bulk list query already returned the page's data. */
  data?: unknown;
  /** The entry's key (RouteEntry.key): with it, the page's state remembers the key and its data's item ids. */
  key?: string;
}

/** Which pages a build wants, by route and path (a shard's share); absent, every page. */
export type KeepPage = (routeId: string, path: string) => boolean;

/**
 * Expands the route table into pages, as they are found: one per static route, one per entry of a
 * dynamic route (whose list queries usually bring each page's data along). A route whose entries
 * cannot be listed is reported through `onFailure`; an unsafe slug fails the build. Pages come in
 * route order, but the next routes' lists are fetched while an earlier route's pages are handed on
 * (ROUTES_AHEAD routes, LISTED_AHEAD pages each), so the build does not wait on one request at a time.
 */
export async function* crawl(
  routes: readonly RouteDefinition[],
  routeData: Readonly<Record<string, RouteDataDefinition>>,
  ctx: RouteDataContext,
  onFailure: (failure: PageFailure) => void,
  { skip, onDocument, keep, unchanged, onUnchanged }: CrawlOptions = {},
): AsyncGenerator<PageJob> {
  const listings = new Map<number, ReadAhead<PageJob>>();
  const list = (index: number): ReadAhead<PageJob> | undefined => {
    const route = routes[index];
    const def = route && routeData[route.id];
    if (!route || !def?.entries || !route.path.includes(':') || skip?.(route.id)) return undefined;
    if (!listings.has(index)) {
      const granted = unchangedPages(route, unchanged?.(route.id));
      listings.set(
        index,
        readAhead(
          entryJobs(route, def.entries, routeContext(ctx, route, onDocument, keep, granted?.ask), keep, granted, onUnchanged),
          LISTED_AHEAD,
        ),
      );
    }
    return listings.get(index);
  };
  try {
    for (const [index, route] of routes.entries()) {
      for (let ahead = 0; ahead <= ROUTES_AHEAD; ahead++) list(index + ahead);
      const def = routeData[route.id];
      if (!def) throw createBuildError(BuildErrors.RouteDataMissing, [route.id, route.path]);
      if (skip?.(route.id)) continue;
      if (!route.path.includes(':')) {
        if (!keep || keep(route.id, route.path)) yield { route, path: route.path, params: {} };
        continue;
      }
      if (!def.entries) throw createBuildError(BuildErrors.RouteEntriesMissing, [route.id, route.path]);
      try {
        yield* list(index)!;
      } catch (cause) {
        // An unsafe slug, or an entry that claims a page unchanged which the build did not say was: the build stops.
        if (isSlugError(cause) || (cause as { code?: string } | null)?.code === BuildErrors.EntryNotUnchanged.code) throw cause;
        onFailure({
          page: route.path,
          route: route.id,
          operation: (cause as { operation?: string })?.operation ?? 'entries',
          cause: describeCause(cause),
          fix: isGraphQLRequestError(cause) ? fixFor(cause) : 'Check the list query of this route in site/queries against the backend.',
        });
      } finally {
        await listings
          .get(index)
          ?.close()
          .catch(() => undefined);
        listings.delete(index);
      }
    }
  } finally {
    // A build that stops early (another page failed) stops the lists still being fetched.
    // Closing never hides the error that stopped the build.
    await Promise.all([...listings.values()].map((listing) => listing.close().catch(() => undefined)));
  }
}

/**
 * Builds a page path from a route pattern, rejecting params that could escape the output folder.
 * `data` is the entry's data: the error names the item whose slug it is, when the data has its id.
 */
export function pathFor(route: Pick<RouteDefinition, 'id' | 'path'>, params: RouteParams, data?: unknown): string {
  const path = route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || !isSafeSegment(value)) {
      const id = value === undefined ? null : findItemId(data, value);
      if (id !== null)
        throw createBuildError(BuildErrors.UnsafeSlug, [
          id,
          quoteSlug(value!),
          `${route.id} (${route.path})`,
          `it is not a safe '${name}' path segment`,
        ]);
      throw createBuildError(BuildErrors.UnsafePath, [String(value), `${route.id} (${route.path}), param '${name}'`]);
    }
    return value;
  });
  // The route's own segments too: the build's state, its sitemap and the dev server take page paths as the crawl makes them.
  if (!isSafePagePath(path)) throw createBuildError(BuildErrors.UnsafeRoutePath, [route.id, route.path, path]);
  return path;
}

/** A path segment that is safe as a folder name on every file system and needs no URL encoding. */
export function isSafeSegment(value: string): boolean {
  return SAFE_SEGMENT.test(value) && !value.includes('..');
}

/** A page path as the crawl makes them: `/`, or `/` and safe segments (isSafeSegment) joined by `/`, no empty one. */
export function isSafePagePath(path: string): boolean {
  return SAFE_PAGE_PATH.test(path) && !path.includes('..');
}

const SEGMENT = '[a-z0-9][a-z0-9._~-]{0,199}';
const SAFE_SEGMENT = new RegExp(`^${SEGMENT}$`, 'i');
const SAFE_PAGE_PATH = new RegExp(`^/(?:${SEGMENT}(?:/${SEGMENT})*)?$`, 'i');

/**
 * Fails when two pages map to the same file, or to files that differ only by case; one page at a time as
 * pages stream past, keeping one short key per page. With the page's data, the error names the items
 * whose slugs collide, which is what an editor has to fix.
 */
export function createDuplicateCheck(): (path: string, data?: unknown) => void {
  const seen = new Map<string, string>();
  return (path, data) => {
    const key = htmlFileFor(path).toLowerCase();
    const other = seen.get(key);
    const page = describePage(path, data);
    if (other !== undefined) throw createBuildError(BuildErrors.DuplicateOutput, [htmlFileFor(path), other, page]);
    seen.set(key, page);
  };
}

// --- internal ---

/**
 * `'/news/a'`, or `'/news/a' (item news-1)` when the data's own fields hold the item the path's last
 * segment names (an item page's item is there; only that level, as every page is looked at).
 */
function describePage(path: string, data: unknown): string {
  const slug = path.slice(path.lastIndexOf('/') + 1);
  const id = data === undefined || slug === '' ? null : findItemId(data, slug, 1);
  return id === null ? `'${path}'` : `'${path}' (item ${id})`;
}

/** Routes whose lists are fetched ahead of the route being handed on. */
const ROUTES_AHEAD = 2;
/** Pages each of those routes may list ahead: enough to keep the backend busy, few enough to stay small. */
const LISTED_AHEAD = 256;

/** The pages of one dynamic route that `keep` accepts, from its entries; those it gives as unchanged go to `onUnchanged` instead. */
async function* entryJobs(
  route: RouteDefinition,
  entries: NonNullable<RouteDataDefinition['entries']>,
  ctx: RouteDataContext,
  keep: KeepPage | undefined,
  granted: UnchangedPages | undefined,
  onUnchanged: CrawlOptions['onUnchanged'],
): AsyncGenerator<PageJob> {
  for await (const entry of entries(ctx)) {
    const path = pathFor(route, entry.params, entry.data);
    if (keep && !keep(route.id, path)) continue;
    if (entry.unchanged) {
      // Only a page the build itself said may be kept: else a route's bug would keep stale pages.
      if (!granted || entry.key === undefined || granted.paths.get(path) !== entry.key || entry.data !== undefined)
        throw createBuildError(BuildErrors.EntryNotUnchanged, [route.id, path]);
      granted.paths.delete(path);
      onUnchanged?.(route.id, path);
      continue;
    }
    yield { route, path, params: entry.params, data: entry.data, ...(entry.key !== undefined && { key: entry.key }) };
  }
}

/** `ctx.unchanged` for one route, and the pages it said may be kept, with the key each was asked with (each may be given as unchanged once, with that key). */
interface UnchangedPages {
  ask: NonNullable<RouteDataContext['unchanged']>;
  paths: Map<string, string>;
}

function unchangedPages(
  route: Pick<RouteDefinition, 'id' | 'path'>,
  previous: ((path: string, key: string) => boolean) | undefined,
): UnchangedPages | undefined {
  if (!previous) return undefined;
  const paths = new Map<string, string>();
  const ask = (params: RouteParams, key: string): boolean => {
    // Params that make no safe path are asked for, so that the crawl names the item to fix.
    const path = safePathFor(route, params);
    if (path === null || typeof key !== 'string' || !previous(path, key)) return false;
    paths.set(path, key);
    return true;
  };
  return { ask, paths };
}

/**
 * The entries' context: the client checks every slug in every answer before the route's code sees it
 * (that is where the item's id is still beside its slug, so the error can say which item to fix), and
 * `wants` answers for the route's pages from `keep`.
 */
function routeContext(
  ctx: RouteDataContext,
  route: Pick<RouteDefinition, 'id' | 'path'>,
  onDocument: CrawlOptions['onDocument'],
  keep: KeepPage | undefined,
  unchanged: RouteDataContext['unchanged'],
): RouteDataContext {
  return {
    buildKey: ctx.buildKey ?? ctx,
    ...(keep && { wants: (params) => wantedPath(route, params, keep) }),
    ...(unchanged && { unchanged }),
    async request<TData>(document: string, variables?: Record<string, unknown>): Promise<TData> {
      onDocument?.(route.id, document);
      const data = await ctx.request<TData>(document, variables);
      const bad = findBadSlug(data);
      if (bad) throw createBuildError(BuildErrors.UnsafeSlug, [bad.id, quoteSlug(bad.slug), `${route.id} (${route.path})`, bad.problem]);
      return data;
    },
  };
}

/** Whether `keep` wants the page of these params; params that make no safe path (pathFor refuses them) are wanted, so that the crawl names the item to fix. */
function wantedPath(route: Pick<RouteDefinition, 'id' | 'path'>, params: RouteParams, keep: KeepPage): boolean {
  const path = safePathFor(route, params);
  return path === null || keep(route.id, path);
}

/** The page path of these params, or null when they make no safe path (pathFor refuses them, and the crawl then names the item to fix). */
function safePathFor(route: Pick<RouteDefinition, 'id' | 'path'>, params: RouteParams): string | null {
  try {
    return pathFor(route, params);
  } catch (error) {
    if (isSlugError(error)) return null;
    throw error;
  }
}

function isSlugError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === BuildErrors.UnsafePath.code || code === BuildErrors.UnsafeSlug.code;
}
