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

/** Every node of a connection, in the API's order. */
export async function* paginate<TResult, TNode>(ctx: RouteDataContext, options: PaginateOptions<TResult, TNode>): AsyncGenerator<TNode> {
  const { document, select, variables = {}, batchSize = ENTRY_BATCH_SIZE } = options;
  const seen = new Set<string>();
  let after: string | null = null;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const page = select(await ctx.request<TResult>(document, { ...variables, first: batchSize, after }));
    yield* page.nodes;
    const next = page.pageInfo.endCursor;
    if (!page.pageInfo.hasNextPage || next === null) return;
    // A cursor seen before would restart the same pages forever: fail loudly instead of building duplicates.
    if (seen.has(next)) throw new Error(`The backend returned the cursor '${next}' twice while paging; refusing to loop.`);
    seen.add(next);
    after = next;
  }
  throw new Error(`Paging stopped after ${MAX_BATCHES} batches; the backend's pageInfo never reported the end.`);
}
