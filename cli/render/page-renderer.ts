import type { RouteDefinition, RouteParams } from '../../runtime/routes.ts';
import type { SearchEntry } from '../../runtime/shared/route-data.ts';
import { pageHash } from '../build/incremental/build-state.ts';
import { inspectPage, type PageInspection } from '../checks/collect.ts';
import { renderPage, type RenderContext } from './render.tsx';
import { documentsHash, searchDocuments, searchEntries, type SearchSetup } from './search-documents.ts';
import { createSharedMarkupCache } from './shared-markup-cache.ts';
import { createPageWriter } from '../output/write.ts';
import { BuildErrors, createBuildError, isBuildError } from '../errors/errors.ts';
import { describeCause } from '../errors/format-error.ts';

/** One page to render: what crosses to a render thread (plain data, cheap to copy). */
export interface PageTask {
  routeId: string;
  path: string;
  params: RouteParams;
  /** serializeJson of the page's sanitised data. */
  json: string;
  /** Carried through to the result for the sitemap. */
  lastmod?: string;
  /**
   * pageHash of the page, for the build state: given when the build already took it (to compare with
   * the previous build), else taken where the page is rendered, off the thread that feeds the others.
   */
  hash?: string;
}

/** What the build keeps of a rendered and written page. */
export interface PageDone {
  path: string;
  routeId: string;
  lastmod?: string;
  hash: string;
  noindex: boolean;
  /** Bytes of its index.html and _payload.json. */
  bytes: number;
  inspection: PageInspection;
  /** What the page gives the site search (search-documents.ts); absent when its route is not searched or the build has no search. */
  search?: readonly SearchEntry[];
  /** The hash of its search documents (documentsHash), with `search`. */
  documents?: string;
}

export interface PageRenderer {
  /** Renders the page, reads what the checks need from it and hands it to the writer. `data` saves a parse when the caller has it. */
  render(task: PageTask, data?: unknown): Promise<PageDone>;
  /** Waits for every write. */
  drain(): Promise<void>;
}

/**
 * Renders pages into `siteDir`: the same code on the main thread and in render threads
 * (render-threads.ts), so where a page is rendered never changes its bytes. With `search`, a page of a
 * searched route also gives its entries for the site search.
 */
export function createPageRenderer(
  ctx: RenderContext,
  siteDir: string,
  payloadBudget: number,
  useSharedMarkup = true,
  reuseFrom: string | null = null,
  search: SearchSetup | null = null,
): PageRenderer {
  const routes = new Map<string, RouteDefinition>(ctx.routes.map((r) => [r.id, r]));
  const writer = createPageWriter(siteDir, { reuseFrom });
  // Without the cache every shared part is rendered on every page (sharedMarkup: false): the same bytes, only slower.
  const sharedMarkup = useSharedMarkup ? createSharedMarkupCache() : undefined;
  return {
    async render(task, data = JSON.parse(task.json)) {
      const route = routes.get(task.routeId);
      if (!route) throw new Error(`No route '${task.routeId}' for ${task.path}: the site's route table changed during the build.`);
      const rendered = renderOrExplain(() => renderPage(ctx, route, task.path, task.params, data, task.json, sharedMarkup), task);
      const { html, payload } = rendered;
      const payloadBytes = payload === null ? 0 : Buffer.byteLength(payload);
      const done: PageDone = {
        path: task.path,
        routeId: task.routeId,
        lastmod: task.lastmod,
        hash: task.hash ?? pageHash(task.routeId, task.path, task.json),
        noindex: rendered.head.noindex === true,
        bytes: Buffer.byteLength(html) + payloadBytes,
        inspection: inspectPage(html, payload, payloadBudget, payloadBytes),
      };
      const searched = search?.routes.get(task.routeId);
      if (search && searched) {
        done.search = searchEntries(searched, data, task.params, ctx.site);
        // searchDocuments cuts the main content out of the HTML only for an entry that uses it.
        if (done.search.length > 0)
          done.documents = documentsHash(searchDocuments({ path: task.path, entries: done.search }, html, ctx.language, search.exclude));
      }
      await writer.write(task.path, { html, payload });
      return done;
    },
    drain: () => writer.drain(),
  };
}

// --- internal ---

/** A page that fails to render names itself: an error from the site's code becomes PageRenderFailed. */
function renderOrExplain<T>(render: () => T, task: PageTask): T {
  try {
    return render();
  } catch (cause) {
    if (isBuildError(cause)) throw cause;
    throw createBuildError(BuildErrors.PageRenderFailed, [task.path, task.routeId, describeCause(cause)], { cause });
  }
}
