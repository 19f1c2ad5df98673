import { operationNameOf, type GraphQLClientHandle } from '../../runtime/shared/graphql.ts';

/** One GraphQL request the build made, timed from call to answer (retries included). */
export interface QueryTiming {
  operation: string;
  variables: Record<string, unknown>;
  ms: number;
  ok: boolean;
}

/**
 * Wraps a client so that every request is timed into `log` (for the report's slowest queries) and,
 * once answered or failed, calls `onSettled` (for the progress of the query stage).
 */
export function timeRequests(
  client: GraphQLClientHandle,
  log: QueryTiming[],
  onSettled?: () => void,
  now: () => number = () => performance.now(),
): GraphQLClientHandle {
  return {
    name: client.name,
    endpoint: client.endpoint,
    requestCount: () => client.requestCount(),
    async request<TData, TVars extends Record<string, unknown> = Record<string, unknown>>(
      document: string,
      variables?: TVars,
    ): Promise<TData> {
      const started = now();
      let ok = false;
      try {
        const data = await client.request<TData, TVars>(document, variables);
        ok = true;
        return data;
      } finally {
        log.push({ operation: operationNameOf(document), variables: variables ?? {}, ms: now() - started, ok });
        onSettled?.();
      }
    },
  };
}

/** The `n` slowest requests, slowest first. */
export function slowestQueries(log: readonly QueryTiming[], n = 5): QueryTiming[] {
  return [...log].sort((a, b) => b.ms - a.ms).slice(0, n);
}
