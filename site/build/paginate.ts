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

/**
 * Every response of a connection walk (the whole query result), in order; list pages are built from whole
 * responses. The next batch is asked for as soon as a response names its cursor, before the caller has
 * used the response: a walk is a chain of requests, and this way the backend prepares one batch while
 * the build works through the one before.
 */
export async function* connectionBatches<TResult, TNode>(
  ctx: RouteDataContext,
  options: PaginateOptions<TResult, TNode>,
): AsyncGenerator<TResult> {
  const { document, select, variables = {}, batchSize = ENTRY_BATCH_SIZE } = options;
  const fetchBatch = (after: string | null): Promise<TResult> => ctx.request<TResult>(document, { ...variables, first: batchSize, after });
  const seen = new Set<string>();
  let next: Promise<TResult> | null = fetchBatch(null);
  try {
    for (let batch = 1; batch <= MAX_BATCHES; batch++) {
      const result = await next!;
      next = null;
      const page = select(result);
      const cursor = page.pageInfo.endCursor;
      const more = page.pageInfo.hasNextPage && cursor !== null;
      if (more) {
        // A cursor seen before would restart the same pages forever: fail loudly instead of building duplicates.
        if (seen.has(cursor)) throw new Error(`The backend returned the cursor '${cursor}' twice while paging; refusing to loop.`);
        seen.add(cursor);
        if (batch < MAX_BATCHES) next = fetchBatch(cursor);
      }
      yield result;
      if (!more) return;
    }
  } finally {
    // A walk stopped early (the build failed elsewhere) leaves no request behind to fail unheard.
    await next?.catch(() => undefined);
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
