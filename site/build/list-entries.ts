import type { RouteDataContext, RouteEntry } from '../../runtime/shared/route-data.ts';
import { CARD_BATCH_SIZE, type ConnectionPage, type PagedList } from '../queries/document.ts';
import { entry } from './entry.ts';
import { connectionBatches } from './paginate.ts';

/**
 * Entries of the `…/page/:page` routes: pages 2… of a list whose page 1 is the list's own route. The build
 * walks the list query itself with `first` set to the page size, so each response is exactly one page, in
 * the shape the list query returns, and the page's cursor never has to appear in a URL.
 */

export interface ListSource<TResult> {
  /** The list route's own query, with `$first` and `$after` variables. */
  document: string;
  select: (result: TResult) => ConnectionPage<unknown>;
  pageSize: number;
  /**
   * The same connection, in the same order, with its nodes' ids and `totalCount` only; with it, each page
   * has a key (the ids it shows, the collection's size, whether more follow: all its data takes from
   * beyond the items it holds), and an update in place walks the keys and asks only for the batches that
   * hold a page it cannot keep (`ctx.unchanged`). The list query's result must then be that connection
   * alone, so nothing else in a page's data can change unseen.
   */
  keys?: { document: string; select: (result: never) => PagedList<{ id: string }> };
}

/** A list source's `keys` from its keys query (listKeysQuery) and the connection's field. */
export function keysFrom(document: string, field: string): NonNullable<ListSource<never>['keys']> {
  return { document, select: (result: Record<string, PagedList<{ id: string }>>) => result[field]! };
}

/** Pages 2… of a list. */
export function laterPages<TResult>(source: ListSource<TResult>): (ctx: RouteDataContext) => AsyncGenerator<RouteEntry> {
  return async function* (ctx) {
    if (source.keys && ctx.unchanged) {
      yield* keptLaterPages(ctx, source, source.keys);
      return;
    }
    for await (const { number, result, key } of listPages(ctx, source, {})) yield { ...entry<TResult>({ page: String(number) }, result), ...(key !== undefined && { key }) };
  };
}

/** Pages 2… of each category's list; `categories` lists the category slugs. */
export function laterCategoryPages<TResult>(
  source: ListSource<TResult>,
  categories: (ctx: RouteDataContext) => Promise<readonly string[]>,
): (ctx: RouteDataContext) => AsyncGenerator<RouteEntry> {
  return async function* (ctx) {
    for (const category of await categories(ctx)) {
      for await (const { number, result } of listPages(ctx, source, { category })) yield entry<TResult>({ category, page: String(number) }, result);
    }
  };
}

// --- internal ---

/**
 * Pages 2… of a list, asked for in bulk: each request brings many pages' worth of items, cut into
 * pages of `pageSize` in the shape one page's query returns (the page's nodes, the collection's
 * totalCount, and whether more follow), so 10,000 items cost about 20 requests rather than 800.
 */
async function* listPages<TResult>(ctx: RouteDataContext, source: ListSource<TResult>, variables: Record<string, unknown>): AsyncGenerator<{ number: number; result: TResult; key?: string }> {
  let number = 0;
  for await (const result of connectionBatches(ctx, { document: source.document, select: source.select, variables, batchSize: perRequestOf(source) })) {
    for (const page of cutIntoPages(source, result, number)) yield page;
    number += Math.ceil(source.select(result).nodes.length / source.pageSize);
  }
}

/**
 * An update in place of a keyed list: the keys are walked (ids only), and a batch of the list query is
 * asked for only when a page it holds cannot be kept; the pages that can come as unchanged, unasked.
 */
async function* keptLaterPages<TResult>(ctx: RouteDataContext, source: ListSource<TResult>, keys: NonNullable<ListSource<TResult>['keys']>): AsyncGenerator<RouteEntry> {
  const perRequest = perRequestOf(source);
  let number = 0;
  // The cursor the batch being looked at starts after: the keys' batches and the list's are the same size, so their cursors match.
  let after: string | null = null;
  for await (const result of connectionBatches(ctx, { document: keys.document, select: keys.select, batchSize: perRequest })) {
    const connection = keys.select(result);
    const pages: { params: { page: string }; key: string; kept: boolean }[] = [];
    for (let start = 0; start < connection.nodes.length; start += source.pageSize) {
      number++;
      if (number === 1) continue;
      const more = start + source.pageSize < connection.nodes.length || connection.pageInfo.hasNextPage;
      const params = { page: String(number) };
      const key = listKey(connection.nodes.slice(start, start + source.pageSize), connection.totalCount, more);
      pages.push({ params, key, kept: ctx.unchanged!(params, key) });
    }
    if (pages.some((page) => !page.kept)) {
      const full = await ctx.request<TResult>(source.document, { first: perRequest, after });
      const asked = new Map<string, { result: TResult; key?: string }>();
      for (const page of cutIntoPages(source, full, number - pages.length - (after === null ? 1 : 0))) asked.set(String(page.number), page);
      for (const page of pages) {
        const found = asked.get(page.params.page);
        if (page.kept) yield { params: page.params, key: page.key, unchanged: true };
        // The list moved between the two walks: the next update in place sees the edit that moved it.
        else if (found) yield { ...entry<TResult>(page.params, found.result), ...(found.key !== undefined && { key: found.key }) };
      }
    } else {
      for (const page of pages) yield { params: page.params, key: page.key, unchanged: true };
    }
    after = connection.pageInfo.endCursor;
  }
}

/** Pages asked for per request: a whole number of pages, about CARD_BATCH_SIZE items. */
function perRequestOf(source: Pick<ListSource<never>, 'pageSize'>): number {
  return Math.max(source.pageSize, Math.floor(CARD_BATCH_SIZE / source.pageSize) * source.pageSize);
}

/**
 * One response of the list query cut into pages of `pageSize`, numbered on from `before` (the pages of
 * earlier responses), in the shape one page's query returns (the page's nodes, the collection's
 * totalCount, and whether more follow). Page 1 is the list's own route, so it is left out. With keys,
 * each page has its key.
 */
function* cutIntoPages<TResult>(source: ListSource<TResult>, result: TResult, before: number): Generator<{ number: number; result: TResult; key?: string }> {
  const connection = source.select(result);
  const key = Object.keys(result as object).find((k) => (result as Record<string, unknown>)[k] === connection);
  let number = before;
  for (let start = 0; start < connection.nodes.length; start += source.pageSize) {
    number++;
    if (number === 1) continue;
    const nodes = connection.nodes.slice(start, start + source.pageSize);
    const more = start + source.pageSize < connection.nodes.length || connection.pageInfo.hasNextPage;
    const page = { ...connection, nodes, pageInfo: { hasNextPage: more, endCursor: null } };
    // A result that nests the list deeper than the top level cannot be cut into pages here: say so rather than guess.
    if (!key) throw new Error(`The list query's connection must be a top-level field of its result to be paged in bulk (${source.document.slice(0, 60)}…).`);
    const keyed = source.keys && listKey(nodes as { id: string }[], (connection as PagedList<unknown>).totalCount, more);
    yield { number, result: { ...(result as object), [key]: page } as TResult, ...(keyed !== undefined && { key: keyed }) };
  }
}

/** A list page's key: the items it shows, in order, the collection's size and whether more pages follow. */
function listKey(nodes: readonly { id: string }[], totalCount: number, more: boolean): string {
  return `${nodes.map((node) => node.id).join(' ')}|${totalCount}|${more ? 'more' : 'last'}`;
}
