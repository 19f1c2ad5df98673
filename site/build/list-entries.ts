import type { RouteDataContext, RouteEntry } from '../../runtime/shared/route-data.ts';
import { CARD_BATCH_SIZE, type ConnectionPage } from '../queries/document.ts';
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
}

/** Pages 2… of a list. */
export function laterPages<TResult>(source: ListSource<TResult>): (ctx: RouteDataContext) => AsyncGenerator<RouteEntry> {
  return async function* (ctx) {
    for await (const { number, result } of listPages(ctx, source, {})) yield entry<TResult>({ page: String(number) }, result);
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
async function* listPages<TResult>(ctx: RouteDataContext, source: ListSource<TResult>, variables: Record<string, unknown>): AsyncGenerator<{ number: number; result: TResult }> {
  const perRequest = Math.max(source.pageSize, Math.floor(CARD_BATCH_SIZE / source.pageSize) * source.pageSize);
  let number = 0;
  for await (const result of connectionBatches(ctx, { document: source.document, select: source.select, variables, batchSize: perRequest })) {
    const connection = source.select(result);
    const key = Object.keys(result as object).find((k) => (result as Record<string, unknown>)[k] === connection);
    for (let start = 0; start < connection.nodes.length; start += source.pageSize) {
      number++;
      if (number === 1) continue;
      const nodes = connection.nodes.slice(start, start + source.pageSize);
      const more = start + source.pageSize < connection.nodes.length || connection.pageInfo.hasNextPage;
      const page = { ...connection, nodes, pageInfo: { hasNextPage: more, endCursor: null } };
      // A result that nests the list deeper than the top level cannot be cut into pages here: say so rather than guess.
      if (!key) throw new Error(`The list query's connection must be a top-level field of its result to be paged in bulk (${source.document.slice(0, 60)}…).`);
      yield { number, result: { ...(result as object), [key]: page } as TResult };
    }
  }
}
