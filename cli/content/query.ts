import pLimit from 'p-limit';
import type { RouteDataDefinition } from '../../runtime/shared/route-data.ts';
import type { GraphQLClientHandle } from '../../runtime/shared/graphql.ts';
import { operationNameOf } from '../../runtime/shared/graphql.ts';
import { serializeJson } from '../../runtime/shared/serialize.ts';
import type { PageJob } from './crawl.ts';
import type { PageFailure } from '../errors/errors.ts';
import { describeCause, fixFor } from '../errors/format-error.ts';
import { pageDepends } from './page-depends.ts';
import { itemIdsIn } from './item-ids.ts';
import { sanitizeData } from './sanitize.ts';
import { PageImageFailed, type ResolvePageImages } from './images/page-images.ts';

/** One page with its data, ready to render. */
export interface PageRecord {
  job: Omit<PageJob, 'data'>;
  /** The page's data, rich text sanitised. */
  data: unknown;
  /** serializeJson(data): HTML-safe, spliced into the page and its payload as it is. */
  json: string;
  /** Last modification for sitemap.xml. */
  lastmod?: string;
  /** pageHash of the record, when it was already taken (a page read back from the previous output). */
  hash?: string;
  /** With an entry's key (RouteEntry.key): the key and the ids of the items the data holds (content/page-depends.ts). */
  depends?: string;
  /** A page kept from the previous build without reading it (build/incremental/kept-pages.ts): no data, and `json` is ''. */
  unread?: true;
  /** The media URLs its data refers to (page-depends.ts mediaList), once the media copier has seen it. */
  media?: string;
}

/**
 * Turns crawled jobs into page records as they arrive, and hands each on at once: pages whose data came
 * with the crawl straight away, the others once their own query answers (at most `concurrency` at a
 * time). Nothing is held for the whole build, so memory does not grow with the site. Failures are
 * collected per page so one build reports all of them together; a failed page is not yielded. Rich text
 * is cleaned with `cleanRichText` (sanitizeRichText or its cache), and the images a page shows are
 * resolved with `resolveImages` (images/page-images.ts): a page waits for its images' sizes, never for
 * their derivatives.
 */
export async function* queryPages(
  jobs: AsyncIterable<PageJob>,
  routeData: Readonly<Record<string, RouteDataDefinition>>,
  client: GraphQLClientHandle,
  concurrency: number,
  failures: PageFailure[],
  cleanRichText: (html: string) => string,
  resolveImages?: ResolvePageImages,
): AsyncGenerator<PageRecord> {
  const limit = pLimit(concurrency);
  const ready: PageRecord[] = [];
  const pending = new Set<Promise<void>>();
  const record = (job: PageJob, data: unknown): PageRecord | null | Promise<PageRecord | null> => {
    const def = routeData[job.route.id]!;
    if (def.exists && !def.exists(data as never)) {
      failures.push({
        page: job.path,
        route: job.route.id,
        operation: operationNameOf(def.query),
        cause: 'the backend returned no item for this page',
        fix: 'Check that the item is published, or remove the link to it.',
      });
      return null;
    }
    const clean = sanitizeData(data, cleanRichText);
    const withImages = resolveImages?.(clean);
    if (!withImages) return recordOf(job, def, clean);
    return withImages.then(
      (resolved) => recordOf(job, def, resolved),
      (cause: unknown) => {
        if (!(cause instanceof PageImageFailed)) throw cause;
        failures.push({ page: job.path, route: job.route.id, operation: `GET ${cause.url}`, cause: cause.message, fix: cause.fix });
        return null;
      },
    );
  };
  const recordOf = (job: PageJob, def: RouteDataDefinition, clean: unknown): PageRecord => {
    const record: PageRecord = {
      job: { route: job.route, path: job.path, params: job.params },
      data: clean,
      json: serializeJson(clean),
      lastmod: pageLastmod(def, clean),
    };
    const depends = job.key === undefined ? undefined : pageDepends(job.key, itemIdsIn(clean));
    if (depends !== undefined) record.depends = depends;
    return record;
  };
  /** A page whose record is still to come (its query, or its images' sizes): ready when it settles, or a failure. */
  const track = (job: PageJob, work: () => Promise<PageRecord | null>): void => {
    const done = work().then(
      (r) => void (r && ready.push(r)),
      (cause: unknown) =>
        void failures.push({
          page: job.path,
          route: job.route.id,
          operation: operationNameOf(routeData[job.route.id]!.query),
          cause: describeCause(cause),
          fix: fixFor(cause),
        }),
    );
    pending.add(done);
    void done.finally(() => pending.delete(done));
  };
  for await (const job of jobs) {
    if (job.data !== undefined) {
      const done = record(job, job.data);
      // A page waiting for its images' sizes waits beside the queries, not ahead of the crawl.
      if (done instanceof Promise) track(job, () => done);
      else if (done) yield done;
    } else {
      const def = routeData[job.route.id]!;
      track(job, () =>
        limit(async () => {
          const answer = await client.request(def.query, def.variables?.(job.params) ?? {});
          return record(job, def.select ? def.select(answer as never) : answer);
        }),
      );
    }
    // Backpressure: a crawl of pages without data (or waiting for images) waits rather than queueing every page at once.
    if (pending.size >= concurrency * 4) await Promise.race(pending);
    yield* ready.splice(0);
  }
  while (pending.size > 0) {
    await Promise.race(pending);
    yield* ready.splice(0);
  }
  yield* ready.splice(0);
}

/**
 * A page's lastmod as the sitemap and the build state take it: the route's `lastmod` gives what the
 * backend sent (a DateTime, which the client does not check), so anything but a string is none.
 */
export function lastmodOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The lastmod of a page of the route `def` with `data`, queried or read back from a previous output (lastmodOf). */
export function pageLastmod(def: RouteDataDefinition | undefined, data: unknown): string | undefined {
  return lastmodOf(def?.lastmod?.(data as never));
}
