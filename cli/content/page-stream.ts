import type { GraphQLClientHandle } from '../../runtime/shared/graphql.ts';
import type { SiteModules } from '../config/site-modules.ts';
import type { PageFailure } from '../errors/errors.ts';
import type { BuildRecorder } from '../report/recorder.ts';
import type { Logger } from '../terminal/logger.ts';
import { crawl } from './crawl.ts';
import { queryPages, type PageRecord } from './query.ts';
import { readAhead, type ReadAhead } from './read-ahead.ts';

export interface PageStreamInput {
  site: Pick<SiteModules, 'routes' | 'routeData'>;
  client: GraphQLClientHandle;
  /** GraphQL requests in flight at once. */
  concurrency: number;
  /** Cleans one rich text (the rich-text cache's, or sanitizeRichText). */
  cleanRichText: (html: string) => string;
  /** Times the queries and counts the crawl and query stages. */
  recorder: Pick<BuildRecorder, 'jobs' | 'crawlClient' | 'pageClient' | 'queried'>;
  /** Pages and routes that could not be queried: collected so the build reports them all together. */
  failures: PageFailure[];
  logger: Logger;
  /** Only the pages this returns true for are queried and handed on (a shard's share); default: every page. */
  keep?: (routeId: string, path: string) => boolean;
}

/**
 * Every page with its data, streamed from the backend: the crawl starts now and runs a bounded distance
 * (READ_AHEAD pages) ahead of rendering, so waiting on the backend overlaps bundling and rendering, and
 * memory does not grow with the site.
 */
export function streamPages({ site, client, concurrency, cleanRichText, recorder, failures, logger, keep }: PageStreamInput): ReadAhead<PageRecord> {
  const started = performance.now();
  const found = crawl(site.routes, site.routeData, recorder.crawlClient(client), (f) => failures.push(f));
  const jobs = recorder.jobs(keep ? keepOnly(found, (job) => keep(job.route.id, job.path)) : found, site.routes.length);
  const records = queryPages(jobs, site.routeData, recorder.pageClient(client), concurrency, failures, cleanRichText);
  return readAhead(
    afterLast(records, (count) => {
      recorder.queried();
      logger.info('query', `${count} pages from ${site.routes.length} routes, ${client.requestCount()} requests in ${Math.round(performance.now() - started)} ms`);
    }),
    READ_AHEAD,
  );
}

// --- internal ---

/** Records pulled ahead of rendering: enough to keep the crawl busy while pages render, few enough to stay small. */
const READ_AHEAD = 512;

async function* keepOnly<T>(source: AsyncIterable<T>, keep: (item: T) => boolean): AsyncGenerator<T> {
  for await (const item of source) if (keep(item)) yield item;
}

/** Passes `source` through and calls `onEnd` with the number of items once it is exhausted. */
async function* afterLast<T>(source: AsyncIterable<T>, onEnd: (count: number) => void): AsyncGenerator<T> {
  let count = 0;
  for await (const item of source) {
    count++;
    yield item;
  }
  onEnd(count);
}
