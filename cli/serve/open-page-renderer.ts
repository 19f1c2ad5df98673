import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { normalizePath } from '../../runtime/shared/paths.ts';
import { findRoute } from '../../runtime/routes.ts';
import type { GraphQLClientHandle } from '../../runtime/shared/graphql.ts';
import type { RouteDataContext } from '../../runtime/shared/route-data.ts';
import { bundleWithCache } from '../bundle/bundle-cache.ts';
import { renderContextFor } from '../build/render-context.ts';
import type { ResolvedConfig } from '../config/config.ts';
import { loadSiteModules, type SiteModules } from '../config/site-modules.ts';
import { crawl } from '../content/crawl.ts';
import { createMediaCopier, mediaFileFor, mediaOptionsOf, mediaUrlsIn } from '../content/media.ts';
import { pageImageResolver, type ResolvePageImages } from '../content/images/page-images.ts';
import { queryPages, type PageRecord } from '../content/query.ts';
import { loadRichTextCache } from '../content/rich-text-cache.ts';
import { loadSiteData, openContentSource } from '../content/source.ts';
import type { PageFailure } from '../errors/errors.ts';
import { describeCause } from '../errors/format-error.ts';
import { readBuild } from '../output/output.ts';
import { contentSecurityPolicy } from '../render/csp.ts';
import { renderPage } from '../render/render.tsx';
import { createSharedMarkupCache } from '../render/shared-markup-cache.ts';
import { loadShell } from '../render/template.ts';
import { isFile } from './site-files.ts';
import type { Logger } from '../terminal/logger.ts';

/**
 * `site dev` puts the open pages first: when the backend reports an edit, this renders the pages open
 * in a browser from the backend as it is now, before the update in place of the whole folder starts, so
 * the edit shows in a second rather than after the whole update. It runs in a process of its own that
 * keeps the site's code, the client bundle's manifest and the rich-text cache loaded between edits
 * (`site dev` starts it again when site/, runtime/ or templates/ change), and it renders a page exactly
 * as the build does: the same crawl of the page's route (told it wants that page only, as a shard is),
 * the same queries, sanitising and render context. The update in place that follows writes the same
 * bytes (tests/integration/open-pages.test.ts).
 */

/** A page rendered first, as the dev server serves it until the update in place is done. */
export interface OpenPage {
  path: string;
  html: string;
  payload: string | null;
  /** The media the page refers to, copied into a folder of this renderer's: site-relative file → absolute file. */
  media: Record<string, string>;
}

/** What one request gave: the pages, and why the others were left to the update in place. */
export interface OpenPagesAnswer {
  pages: OpenPage[];
  /** Per path not rendered: why (no route, the page failed, the site-wide data changed…). */
  skipped: { path: string; why: string }[];
}

export interface OpenPageRenderer {
  /** Renders these pages (site paths) as the next build would, from the backend as it is now. */
  render(paths: readonly string[]): Promise<OpenPagesAnswer>;
  close(): Promise<void>;
}

/** Open pages rendered per edit at most: each costs its route's list walk, and anyone who reaches the dev server may say a page is open. */
export const MAX_OPEN_PAGES = 8;

/** The media folders of the latest requests kept: a page shown first may still be served with the media of an edit or two back. */
const MEDIA_ROUNDS_KEPT = 8;

/** What the open pages' renderer reads of the configuration: the backend's, the render's and the media's options. */
export type OpenPageRendererOptions = Pick<
  ResolvedConfig,
  | 'endpoint'
  | 'token'
  | 'drafts'
  | 'timeoutMs'
  | 'retries'
  | 'retryDelayMs'
  | 'concurrency'
  | 'root'
  | 'cacheDir'
  | 'outDir'
  | 'baseUrl'
  | 'sourceDateEpoch'
  | 'csp'
  | 'publicEndpoint'
  | 'sentryDsn'
  | 'buildCheckInterval'
  | 'images'
  | 'mediaMaxBytes'
>;

/** Loads what every page shares (the site's code, the bundle's manifest, the template) once. */
export async function createOpenPageRenderer(config: OpenPageRendererOptions, logger: Logger): Promise<OpenPageRenderer> {
  const source = await openContentSource(config, logger);
  const scratch = await mkdtemp(join(config.cacheDir, 'open-pages-'));
  const dispose = async (): Promise<void> => {
    await source.close();
    await rm(scratch, { recursive: true, force: true });
  };
  try {
    const [site, richText, bundle, shell] = await Promise.all([
      loadSiteModules(),
      loadRichTextCache(config.cacheDir),
      bundleWithCache(config.root, join(scratch, 'bundle'), config.cacheDir),
      loadShell(config.root),
    ]);
    const csp = config.csp ? contentSecurityPolicy(config) : null;
    let round = 0;
    return {
      async render(paths) {
        const answer: OpenPagesAnswer = { pages: [], skipped: [] };
        const siteData = await loadSiteData(source.client, site.siteData.query);
        const { ctx } = await renderContextFor(config, {
          site: siteData,
          modules: site,
          assets: bundle.manifest,
          shell,
          csp,
          now: () => new Date(),
        });
        // Another build id (the site-wide data or the code changed): every page changes, and the update in place reloads them all.
        const built = await readBuild(config.outDir).then(
          ({ latest, meta }) => ({ id: latest.id, pages: new Set(meta.prerendered) }),
          () => null,
        );
        if (built?.id !== ctx.buildId) {
          answer.skipped.push(...paths.map((path) => ({ path, why: 'the site-wide data changed, so every page is built again' })));
          return answer;
        }
        // Only pages of the build, and a few: the paths come from whoever connects to the dev server.
        const wanted = [...new Set(paths.map(normalizePath))].filter(
          (path) => built.pages.has(path) || void answer.skipped.push({ path, why: 'not a page of the build in the folder' }),
        );
        for (const path of wanted.splice(MAX_OPEN_PAGES)) answer.skipped.push({ path, why: `more than ${MAX_OPEN_PAGES} pages are open` });
        // A context of this request's own: what routes derive once per build (an event list, say) is derived again from the backend as it is now.
        const client = { request: source.client.request.bind(source.client), buildKey: {} };
        const sharedMarkup = createSharedMarkupCache();
        // The pages' media the folder does not hold yet go to a folder of this request's, each file once.
        // The folders of requests long past go: their pages have been built since. The copier is made
        // first: its image pipeline resolves the pages' images, as the build's does, before they render.
        const mediaDir = join(scratch, `media-${++round}`);
        await rm(join(scratch, `media-${round - MEDIA_ROUNDS_KEPT}`), { recursive: true, force: true });
        let knowHeld!: (held: ReadonlySet<string>) => void;
        const present = new Promise<ReadonlySet<string>>((resolve) => (knowHeld = resolve));
        const copier = createMediaCopier({
          origin: new URL(source.endpoint).origin,
          siteDir: mediaDir,
          concurrency: 8,
          present,
          ...mediaOptionsOf(config),
        });
        const resolveImages = copier.images ? pageImageResolver(copier.images, site.images.richTextSizes) : undefined;
        const rendered: { page: OpenPage; json: string }[] = [];
        for (const open of wanted) {
          try {
            const found = await pageRecord(site, client, source.client, open, richText.clean, config.concurrency, resolveImages);
            if (typeof found === 'string') {
              answer.skipped.push({ path: open, why: found });
              continue;
            }
            const { route, path, params } = found.job;
            const { html, payload } = renderPage(ctx, route, path, params, found.data, found.json, sharedMarkup);
            rendered.push({ page: { path, html, payload, media: {} }, json: found.json });
          } catch (error) {
            // The build meets the same problem and says what to fix; the other open pages still render.
            answer.skipped.push({ path: open, why: describeCause(error) });
          }
        }
        const urls = rendered.map(({ json }) => [...new Set(mediaUrlsIn(json))]);
        const held = new Set<string>();
        for (const url of new Set(urls.flat())) {
          // A URL that names no file under media/ is the copier's to refuse, with the build's message.
          const file = safeMediaFile(url);
          if (file !== null && (await isFile(join(config.outDir, file)))) held.add(url);
        }
        knowHeld(held);
        for (const { page, json } of rendered) copier.addFrom(json, page.path);
        // A medium that cannot be copied fails the build too: its pages are left to it, which says why.
        const [mediaFailure] = await copier.done();
        rendered.forEach(({ page }, i) => {
          if (mediaFailure)
            return void answer.skipped.push({ path: page.path, why: `a medium could not be copied (${mediaFailure.cause})` });
          for (const url of urls[i]!) if (!held.has(url)) page.media[mediaFileFor(url)] = join(mediaDir, mediaFileFor(url));
          answer.pages.push(page);
        });
        return answer;
      },
      close: dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/**
 * The page at `open` from the backend, as the build would query it: its route crawled for that page
 * alone (as a shard is told which pages it wants), then its query; or why there is none.
 */
async function pageRecord(
  site: SiteModules,
  lists: RouteDataContext,
  client: GraphQLClientHandle,
  open: string,
  clean: (html: string) => string,
  concurrency: number,
  resolveImages: ResolvePageImages | undefined,
): Promise<PageRecord | string> {
  const match = findRoute(site.routes, open);
  if (!match) return 'no route has this path';
  const failures: PageFailure[] = [];
  const routeId = match.route.id;
  const jobs = crawl(site.routes, site.routeData, lists, (failure) => failures.push(failure), {
    skip: (id) => id !== routeId,
    keep: (id, path) => id === routeId && path === open,
  });
  let found: PageRecord | null = null;
  for await (const record of queryPages(jobs, site.routeData, client, concurrency, failures, clean, resolveImages)) found ??= record;
  return found ?? (failures[0] ? failures[0].cause : 'the backend no longer lists this page');
}

function safeMediaFile(url: string): string | null {
  try {
    return mediaFileFor(url);
  } catch {
    return null;
  }
}
