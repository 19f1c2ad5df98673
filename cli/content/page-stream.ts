import type { GraphQLClientHandle } from '../../runtime/shared/graphql.ts';
import type { SiteModules } from '../config/site-modules.ts';
import type { PageFailure } from '../errors/errors.ts';
import type { BuildRecorder } from '../report/recorder.ts';
import type { Logger } from '../terminal/logger.ts';
import { crawl, type CrawlOptions, type KeepPage } from './crawl.ts';
import { queryPages, type PageRecord } from './query.ts';
import { createPageSpill, type PackedPage } from './packed-page.ts';
import { readAhead, type ReadAhead } from './read-ahead.ts';
import type { ResolvePageImages } from './images/page-images.ts';
import { holdingPages } from '../config/heap-growth.js';

export interface PageStreamInput {
  site: Pick<SiteModules, 'routes' | 'routeData'>;
  client: GraphQLClientHandle;
  /** GraphQL requests in flight at once. */
  concurrency: number;
  /** Cleans one rich text (the rich-text cache's, or sanitizeRichText). */
  cleanRichText: (html: string) => string;
  /** Resolves the images a page shows (images/page-images.ts); default: images stay as the backend gave them. */
  resolveImages?: ResolvePageImages;
  /** Times the queries and counts the crawl and query stages. */
  recorder: Pick<BuildRecorder, 'jobs' | 'crawlClient' | 'pageClient' | 'queried'>;
  /** Pages and routes that could not be queried: collected so the build reports them all together. */
  failures: PageFailure[];
  logger: Logger;
  /** Only the pages this returns true for are fetched, queried and handed on (a shard's share); default: every page. */
  keep?: KeepPage;
  /**
   * Routes not asked of the backend, the pages of asked routes that may be kept unasked (`ctx.unchanged`)
   * and where those go, and every kept page as the previous build wrote it (build/incremental/changed-routes.ts).
   */
  reuse?: Pick<CrawlOptions, 'unchanged' | 'onUnchanged'> & { skip: (routeId: string) => boolean; pages: AsyncIterable<PageRecord> };
  /** Filled with each document the routes' entries send, by route id, to learn what each route reads. */
  documents?: Map<string, Set<string>>;
  /**
   * Called with each page as it joins the read-ahead, in the order pages are handed on: work that needs
   * only the page's data (copying its media) starts there, ahead of rendering, and while the client bundles.
   */
  onPage?: (record: PageRecord) => void;
  /**
   * Rendering cannot start until this settles (the client bundle): until then the stream reads further
   * ahead (WAITING_READ_AHEAD pages), so the crawl, rich-text cleaning and media copies go on meanwhile.
   */
  renderingFrom?: Promise<unknown>;
  /** Where the pages past READ_AHEAD go while rendering cannot start (packed-page.ts): a scratch file the stream deletes when it ends or closes. */
  spillFile?: string;
}

/**
 * Every page with its data, streamed from the backend: the crawl starts now and runs a bounded distance
 * (READ_AHEAD pages) ahead of rendering, so waiting on the backend overlaps bundling and rendering, and
 * memory does not grow with the site.
 */
export function streamPages({
  site,
  client,
  concurrency,
  cleanRichText,
  resolveImages,
  recorder,
  failures,
  logger,
  keep,
  reuse,
  documents,
  onPage,
  renderingFrom,
  spillFile,
}: PageStreamInput): ReadAhead<PageRecord> {
  const started = performance.now();
  const onDocument =
    documents &&
    ((routeId: string, document: string) => void (documents.get(routeId) ?? documents.set(routeId, new Set()).get(routeId)!).add(document));
  const found = crawl(site.routes, site.routeData, recorder.crawlClient(client), (f) => failures.push(f), {
    skip: reuse?.skip,
    unchanged: reuse?.unchanged,
    onUnchanged: reuse?.onUnchanged,
    onDocument,
    keep,
  });

  const routes = reuse ? site.routes.filter((r) => !reuse.skip(r.id)).length : site.routes.length;
  const jobs = recorder.jobs(found, routes);
  const queried = queryPages(jobs, site.routeData, recorder.pageClient(client), concurrency, failures, cleanRichText, resolveImages);
  let unread = 0;
  // While rendering cannot start, the pages past the first READ_AHEAD wait in the spill file.
  const spill = spillFile ? createPageSpill(spillFile, SPILL_BYTES) : null;
  let packing = renderingFrom !== undefined && spill !== null;
  let joined = 0;
  const stream = readAhead<HeldPage>(
    afterLast(
      queried,
      reuse?.pages ?? null,
      (count, asked) => {
        recorder.queried();
        const kept = reuse
          ? `; ${count - asked} kept from the previous output (${count - asked - unread} read back), no change reaches them`
          : '';
        logger.info(
          'query',
          `${asked} pages from ${routes} routes, ${client.requestCount()} requests in ${Math.round(performance.now() - started)} ms${kept}`,
        );
      },
      (record) => {
        if (record.unread) unread++;
        onPage?.(record);
        return packing && ++joined > READ_AHEAD && !record.unread ? spill!.pack(record) : record;
      },
    ),
    renderingFrom ? WAITING_READ_AHEAD : READ_AHEAD,
    // Pages are not all small: whatever their number, the JSON held ahead stays under a bound (a spilled page holds none).
    { of: (held) => ('offset' in held ? 0 : held.json.length), max: READ_AHEAD_CHARS },
  );
  if (renderingFrom) {
    // Thousands of pages held, and only more of them until rendering starts: the heap may grow further
    // meanwhile. Spilled, they are not in the heap.
    const holding = spill ? () => undefined : holdingPages();
    const rendering = (): void => {
      packing = false;
      stream.resize(READ_AHEAD);
      holding();
    };
    renderingFrom.then(rendering, rendering);
  }
  return {
    async *[Symbol.asyncIterator]() {
      try {
        for await (const held of stream) yield 'offset' in held ? spill!.unpack(held) : held;
      } finally {
        spill?.remove();
      }
    },
    close: () => stream.close().finally(() => spill?.remove()),
    resize: (size) => stream.resize(size),
  };
}

// --- internal ---

type HeldPage = PageRecord | PackedPage;

/** Records pulled ahead of rendering: enough to keep the crawl busy while pages render, few enough to stay small. */
const READ_AHEAD = 512;
/**
 * Records pulled ahead while rendering cannot start yet (a cold build cache bundles the client for
 * seconds): a site of up to this many pages is crawled whole meanwhile, and rendering then has both CPUs
 * to itself. Past the first READ_AHEAD they wait in the spill file (packed-page.ts), not in memory. Measured
 * on 10,803 pages, cold builds in interleaved pairs: 1,024 ahead 10.9-11.4 s, 8,192 10.4-11.4 s, 16,384
 * 9.9-10.3 s.
 */
const WAITING_READ_AHEAD = 16_384;
/**
 * The JSON held ahead, in characters, whatever the number of pages: the sample site's 10,803 pages come
 * to 40 MiB, so the bound only holds back a site of very large pages (a page's parsed data costs about as
 * much again as its JSON).
 */
const READ_AHEAD_CHARS = 64 * 1024 * 1024;
/**
 * The spill file's bound in bytes: spilled pages count nothing toward READ_AHEAD_CHARS, so without it a
 * site of huge pages could fill the disk while the client bundles. Past it, pages are held in memory as
 * before the spill file, counted toward READ_AHEAD_CHARS, and the crawl waits once that is reached. Four
 * times the in-memory budget: 256 MiB, six times the sample site's 10,803 pages (40 MiB of JSON).
 */
const SPILL_BYTES = 4 * READ_AHEAD_CHARS;

/**
 * Passes `first` then `second` through (the pages asked of the backend, then the kept ones), each item as
 * `onItem` gives it back, and calls `onEnd` once both are exhausted with the number of items, and of those
 * from `first`. One generator: each layer an item passes costs promises, and an update in place hands
 * on every kept page.
 */
async function* afterLast<T, H = T>(
  first: AsyncIterable<T>,
  second: AsyncIterable<T> | null,
  onEnd: (count: number, first: number) => void,
  onItem: (item: T) => H,
): AsyncGenerator<H> {
  let count = 0;
  for await (const item of first) {
    count++;
    yield onItem(item);
  }
  const asked = count;
  if (second)
    for await (const item of second) {
      count++;
      yield onItem(item);
    }
  onEnd(count, asked);
}
