import type { OutputCollector } from '../../runtime/shared/route-data.ts';
import { seenWhole, type BuildState, type PageRecordForState } from '../build/incremental/build-state.ts';
import { unchangedPage } from '../build/incremental/incremental.ts';
import { BuiltPaths, PageRecords } from '../build/incremental/page-records.ts';
import type { PageRecord } from '../content/query.ts';
import type { BuildRecorder } from '../report/recorder.ts';
import { createPageFeed } from './page-feed.ts';
import { createPageRenderer, type PageDone } from './page-renderer.ts';
import type { RenderContext } from './render.tsx';
import { createPageDispatcher, type RenderThreads } from './render-threads.ts';
import type { SearchSetup, SearchedPage } from './search-documents.ts';

export interface RenderPagesInput {
  ctx: RenderContext;
  /** The staging folder the pages are written to. */
  siteDir: string;
  payloadBudget: number;
  /** Render every shared part on every page (no shared-markup cache): the same bytes, slower. */
  sharedMarkup: boolean;
  /** The previous output: a page file with the same bytes there is hard-linked, not written; null: write every file. */
  reuseFrom: string | null;
  /** Threads rendering beside the main thread, started early; null: the main thread only. */
  threads: RenderThreads | null;
  /** The build in the output folder when it is updated in place: its unchanged pages are kept. */
  previous: BuildState | null;
  /** Extra outputs (feeds, calendars), each shown every page's data, or its note of a page kept unread. */
  collectors: readonly OutputCollector[];
  recorder: Pick<BuildRecorder, 'startPages' | 'rendered' | 'restored' | 'pagesDone'>;
  /** The routes the site search indexes (each of their pages gives its entries) and what it leaves out of a page. Null: no search index. */
  search: SearchSetup | null;
}

/** What the later stages need of the pages: the sitemap, the build state and the meta's list of pages. */
export interface RenderedPages {
  /** Every page's path and its route's place in the route table, in the order the crawl found them. */
  built: BuiltPaths;
  /** Per page, in the recorder's order: what the next build's state keeps, and the sitemap's entries (with the inspector's paths). */
  records: PageRecords;
  /** Bytes of every page's index.html and _payload.json. */
  bytes: number;
  rendered: number;
  /** Pages kept unchanged from the previous build. */
  kept: number;
  /** Pages rendered on a render thread. */
  onThreads: number;
  /** The pages that give the site search entries; null when the build has no search index. */
  search: SearchedPage[] | null;
}

/**
 * Renders and writes every page as it arrives from the backend, on the main thread and the render
 * threads, except a page the previous build has with the same route, path and data, which is kept.
 * Each page also feeds the duplicate check, the extra outputs and the search index (render/page-feed.ts; the media copier is fed as pages stream in: content/page-stream.ts).
 */
export async function renderPages(pages: AsyncIterable<PageRecord>, input: RenderPagesInput): Promise<RenderedPages> {
  const { ctx, siteDir, threads, previous, collectors, recorder, search } = input;
  const result: RenderedPages = {
    built: new BuiltPaths(),
    records: new PageRecords(),
    bytes: 0,
    rendered: 0,
    kept: 0,
    onThreads: 0,
    search: search ? [] : null,
  };
  const routeOrder = new Map(ctx.routes.map((r, i) => [r.id, i]));
  // Each page being rendered, until it is done: its path as the crawl gave it, what it depends on (its
  // entry's key and its items) and what the build saw of its data.
  const rendering = new Map<string, { path: string; facts: Pick<PageRecordForState, 'depends' | 'media' | 'notes'> | undefined }>();
  const take = (done: readonly PageDone[], threaded = false): void => {
    if (threaded) result.onThreads += done.length;
    for (const page of done) {
      const known = rendering.get(page.path);
      rendering.delete(page.path);
      // The crawl's string, which `built` holds too: a page from a render thread comes with a copy of its own (5 MB at 100,000 pages).
      const path = known?.path ?? page.path;
      recorder.rendered(path, page.routeId, page.inspection);
      const facts = known?.facts;
      result.records.push({
        hash: page.hash,
        noindex: page.noindex,
        lastmod: page.lastmod,
        bytes: page.bytes,
        depends: facts?.depends,
        media: facts?.media,
        notes: facts?.notes,
      });
      result.bytes += page.bytes;
      if (page.search?.length)
        result.search!.push({
          path,
          route: routeOrder.get(page.routeId) ?? 0,
          entries: page.search,
          kept: false,
          documents: page.documents,
        });
    }
  };
  const renderer = createPageRenderer(ctx, siteDir, input.payloadBudget, input.sharedMarkup, input.reuseFrom, search);
  const { routes: _routes, layouts: _layouts, modules: _modules, ...threadCtx } = ctx;
  threads?.init({
    ctx: threadCtx,
    siteDir,
    payloadBudget: input.payloadBudget,
    sharedMarkup: input.sharedMarkup,
    reuseFrom: input.reuseFrom,
    search: search !== null,
  });
  const dispatch = createPageDispatcher(renderer, threads, take);
  const feed = createPageFeed({ collectors, searchRoutes: search?.routes ?? null, searched: result.search, site: ctx.site, routeOrder });
  recorder.startPages();
  try {
    for await (const record of pages) {
      const { route, path, params } = record.job;
      result.built.push(path, routeOrder.get(route.id) ?? 0);
      const { kept, hash } = unchangedPage(previous, route.id, path, record.json, record.hash);
      // A page kept unread (build/incremental/kept-pages.ts): the outputs get their notes of it, and its media are the ones the state names.
      let facts: Pick<PageRecordForState, 'depends' | 'media' | 'notes'> | undefined;
      if (record.unread) {
        if (!kept || !seenWhole(kept))
          throw new Error(
            `The page ${path} was kept without its data, though the previous build did not record what the outputs need of it.`,
          );
        feed.unread({ path, routeId: route.id, params, data: record.data }, kept.notes!);
      } else {
        // A kept page's search entries come from its data; a rendered page's from its renderer.
        facts = factsOf(record, feed.read({ path, routeId: route.id, params, data: record.data }, kept ? { kept: true } : null));
      }
      if (kept) {
        recorder.restored(kept.inspected, kept.links);
        // A page asked for again remembers what it depends on now (a new key; the items, in the same data, are the same).
        result.records.push(facts ? { ...kept, ...facts } : kept);
        result.bytes += kept.bytes;
        result.kept++;
        continue;
      }
      rendering.set(path, { path, facts });
      await dispatch.page({ routeId: route.id, path, params, json: record.json, lastmod: record.lastmod, hash }, record.data);
    }
    await dispatch.finish();
    await renderer.drain();
    await threads?.drain();
  } catch (error) {
    // Nothing may still be writing into the staging folder when the build removes it.
    await threads?.drain().catch(() => undefined);
    await renderer.drain().catch(() => undefined);
    throw error;
  }
  recorder.pagesDone();
  result.rendered = result.built.length - result.kept;
  return result;
}

// --- internal ---

/** What the build state keeps of a page besides its facts, only the fields it has (a build holds one record per page). */
function factsOf(record: PageRecord, notes: readonly unknown[]): Pick<PageRecordForState, 'depends' | 'media' | 'notes'> | undefined {
  if (record.depends === undefined && record.media === undefined) return undefined;
  if (record.media === undefined) return { depends: record.depends };
  return record.depends === undefined ? { media: record.media, notes } : { depends: record.depends, media: record.media, notes };
}
