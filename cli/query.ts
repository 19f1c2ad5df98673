import pLimit from 'p-limit';
import type { RouteDataDefinition } from '../runtime/shared/route-data.ts';
import type { GraphQLClientHandle } from '../runtime/shared/graphql.ts';
import { operationNameOf } from '../runtime/shared/graphql.ts';
import type { PageJob } from './crawl.ts';
import type { PageFailure } from './errors.ts';
import { describeCause } from './format-error.ts';

export interface PageData {
  job: PageJob;
  data: unknown;
}

export interface QueryResult {
  pages: PageData[];
  failures: PageFailure[];
}

/**
 * Runs each page's query (unless its data came with the crawl), at most `concurrency` at once.
 * Failures are collected per page so one build reports all of them together.
 */
export async function queryPages(jobs: readonly PageJob[], routeData: Readonly<Record<string, RouteDataDefinition>>, client: GraphQLClientHandle, concurrency: number): Promise<QueryResult> {
  const limit = pLimit(concurrency);
  const failures: PageFailure[] = [];
  const results = await Promise.all(
    jobs.map((job) =>
      limit(async (): Promise<PageData | null> => {
        const def = routeData[job.route.id];
        if (!def) return null;
        const operation = operationNameOf(def.query);
        try {
          const data = job.data !== undefined ? job.data : await client.request(def.query, def.variables?.(job.params) ?? {});
          if (def.exists && !def.exists(data as never)) {
            failures.push({ page: job.path, route: job.route.id, operation, cause: 'the backend returned no item for this page', fix: 'Check that the item is published, or remove the link to it.' });
            return null;
          }
          return { job, data };
        } catch (cause) {
          failures.push({ page: job.path, route: job.route.id, operation, cause: describeCause(cause), fix: fixFor(cause) });
          return null;
        }
      }),
    ),
  );
  return { pages: results.filter((r): r is PageData => r !== null), failures };
}

// --- internal ---

function fixFor(cause: unknown): string {
  const kind = (cause as { kind?: string })?.kind;
  const status = (cause as { status?: number | null })?.status;
  if (status === 401 || status === 403) return 'Check the token in GRAPHQL_TOKEN: the backend refused it.';
  if (kind === 'graphql') return 'Fix the query in site/queries or the content it asks for; the backend reported the errors above.';
  if (kind === 'network' || kind === 'timeout') return 'Check that the backend is running and reachable, then build again.';
  return 'Check the backend logs for this request, then build again.';
}
