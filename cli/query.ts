import pLimit from 'p-limit';
import type { RouteDataDefinition } from '../runtime/shared/route-data.ts';
import type { GraphQLClientHandle } from '../runtime/shared/graphql.ts';
import { operationNameOf } from '../runtime/shared/graphql.ts';
import { serializeJson } from '../runtime/shared/serialize.ts';
import type { PageJob } from './crawl.ts';
import type { PageFailure } from './errors.ts';
import { describeCause } from './format-error.ts';
import { sanitizeData } from './sanitize.ts';

/**
 * One page's data, kept only as its serialised JSON (HTML-safe, rich text sanitised): a string is
 * far smaller than the object graph, and pages are rendered from it one at a time.
 */
export interface PageRecord {
  job: Omit<PageJob, 'data'>;
  /** serializeJson(sanitised data). */
  json: string;
  /** Last modification for sitemap.xml. */
  lastmod?: string;
}

export interface QueryResult {
  records: PageRecord[];
  failures: PageFailure[];
}

/**
 * Turns crawled jobs into page records as they arrive: pages whose data came with the crawl are
 * recorded at once, the others run their own query (at most `concurrency` at a time). Failures are
 * collected per page so one build reports all of them together.
 */
export async function queryPages(
  jobs: AsyncIterable<PageJob>,
  routeData: Readonly<Record<string, RouteDataDefinition>>,
  client: GraphQLClientHandle,
  concurrency: number,
  failures: PageFailure[],
): Promise<QueryResult> {
  const limit = pLimit(concurrency);
  const records: PageRecord[] = [];
  const pending: Promise<void>[] = [];
  const record = (job: PageJob, data: unknown): void => {
    const def = routeData[job.route.id]!;
    if (def.exists && !def.exists(data as never)) {
      failures.push({ page: job.path, route: job.route.id, operation: operationNameOf(def.query), cause: 'the backend returned no item for this page', fix: 'Check that the item is published, or remove the link to it.' });
      return;
    }
    const clean = sanitizeData(data);
    records.push({ job: { route: job.route, path: job.path, params: job.params }, json: serializeJson(clean), lastmod: def.lastmod?.(clean as never) });
  };
  for await (const job of jobs) {
    if (job.data !== undefined) {
      record(job, job.data);
      continue;
    }
    const def = routeData[job.route.id]!;
    pending.push(
      limit(async () => {
        try {
          record(job, await client.request(def.query, def.variables?.(job.params) ?? {}));
        } catch (cause) {
          failures.push({ page: job.path, route: job.route.id, operation: operationNameOf(def.query), cause: describeCause(cause), fix: fixFor(cause) });
        }
      }),
    );
  }
  await Promise.all(pending);
  return { records, failures };
}

/** What to do about a failed request, by the kind of failure (GraphQLRequestError's kind and status). */
export function fixFor(cause: unknown): string {
  const kind = (cause as { kind?: string })?.kind;
  const status = (cause as { status?: number | null })?.status;
  if (status === 401 || status === 403) return 'Check the token in GRAPHQL_TOKEN: the backend refused it.';
  if (kind === 'graphql') return 'Fix the query in site/queries or the content it asks for; the backend reported the errors above.';
  if (kind === 'network' || kind === 'timeout') return 'Check that the backend is running and reachable (the request was retried with backoff), then build again; --timeout and --retries give it more time.';
  if (kind === 'invalid-response') return 'The backend, or a proxy in front of it, answered with something other than GraphQL JSON even after retries: check --endpoint and the proxy, then build again.';
  if (kind === 'http' && (status === 408 || status === 429 || (status ?? 0) >= 500)) return 'The backend kept failing after every retry: check its logs and load, then build again.';
  return 'Check the backend logs for this request, then build again.';
}
