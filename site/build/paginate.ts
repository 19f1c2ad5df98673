import type { RouteDataContext } from '../../runtime/shared/route-data.ts';
import { ENTRY_BATCH_SIZE, type ConnectionPage } from '../queries/document.ts';

/**
 * Walks a Relay-style connection to its end, one request per batch. Build-only: the browser never
 * enumerates collections.
 */

/** Hard stop for a backend whose `pageInfo` never ends (a repeated cursor or a cursor that never advances). */
const MAX_BATCHES = 10_000;

export interface PaginateOptions<TResult, TNode> {
  document: string;
  /** The connection inside the query's result. */
  select: (result: TResult) => ConnectionPage<TNode>;
  /** Fixed variables besides `first` and `after`. */
  variables?: Record<string, unknown>;
  batchSize?: number;
}

/** Every response of a connection walk (the whole query result), in order; list pages are built from whole responses. */
export async function* connectionBatches<TResult, TNode>(ctx: RouteDataContext, options: PaginateOptions<TResult, TNode>): AsyncGenerator<TResult> {
  const { document, select, variables = {}, batchSize = ENTRY_BATCH_SIZE } = options;
  const seen = new Set<string>();
  let after: string | null = null;
  for (let batch = 1; batch <= MAX_BATCHES; batch++) {
    const result = await ctx.request<TResult>(document, { ...variables, first: batchSize, after });
    yield result;
    const page = select(result);
    const next = page.pageInfo.endCursor;
    if (!page.pageInfo.hasNextPage || next === null) return;
    // A cursor seen before would restart the same pages forever: fail loudly instead of building duplicates.
    if (seen.has(next)) throw new Error(`The backend returned the cursor '${next}' twice while paging; refusing to loop.`);
    seen.add(next);
    after = next;
  }
  throw new Error(`Paging stopped after ${MAX_BATCHES} batches; the backend's pageInfo never reported the end.`);
}

/** Every node of a connection, in the API's order. */
export async function* paginate<TResult, TNode>(ctx: RouteDataContext, options: PaginateOptions<TResult, TNode>): AsyncGenerator<TNode> {
  for await (const result of connectionBatches(ctx, options)) yield* options.select(result).nodes;
}

/** Every node of a connection, collected: for lists the build has to reorder or cross-reference. */
export async function collectAll<TResult, TNode>(ctx: RouteDataContext, options: PaginateOptions<TResult, TNode>): Promise<TNode[]> {
  const all: TNode[] = [];
  for await (const node of paginate(ctx, options)) all.push(node);
  return all;
}
