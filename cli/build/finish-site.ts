import { join } from 'node:path';
import { checkSite, reportWarnings } from '../checks/check-site.ts';
import type { ContentWarning } from '../checks/run.ts';
import type { BuiltPages } from '../../runtime/shared/route-data.ts';
import type { SiteModules } from '../config/site-modules.ts';
import { writeBuildMeta } from '../output/build-meta.ts';
import { writeExtras, type Extras, type OutputSource } from '../output/extras.ts';
import type { SitemapEntry } from '../output/sitemap.ts';
import { renderErrorPage, type RenderContext } from '../render/render.tsx';
import type { BuildRecorder } from '../report/recorder.ts';
import type { Logger } from '../terminal/logger.ts';
import { logTimed } from '../terminal/logger.ts';

export interface FinishSiteInput {
  /** The staging folder, which holds every page. */
  siteDir: string;
  /** The project root (site/public). */
  root: string;
  ctx: RenderContext;
  timestamp: number;
  site: Pick<SiteModules, 'routes' | 'routeRules'>;
  /** Extra outputs that have seen every page (and the search index's files). */
  collectors: readonly OutputSource[];
  /** Any built page's data, for the outputs' files (build/incremental/kept-pages.ts builtPages). */
  pages: BuiltPages;
  /** Every page's path and its route's place in the route table. */
  built: Iterable<{ path: string; route: number }> & { readonly length: number };
  sitemap: Iterable<SitemapEntry>;
  /** Media URLs the pages refer to. */
  media: ReadonlySet<string>;
  /** The previous build's outputs when it is updated in place. */
  previousOutputs?: ReadonlyMap<string, string>;
  payloadBudget: number;
  strict: boolean;
  verbose: boolean;
  recorder: Pick<BuildRecorder, 'inspected' | 'checked'>;
}

/**
 * What spans the whole site once every page is written, for a build on one machine and for the merge of
 * a sharded build alike: the extra outputs, 404, sitemap and robots, the build meta and latest.json, then
 * the content checks (under --strict a warning fails the build here, before the output is touched).
 * Returns what the extras wrote and the prerendered paths in route order.
 */
export async function finishSite(
  input: FinishSiteInput,
  logger: Logger,
): Promise<{ extras: Extras; prerendered: string[]; warnings: ContentWarning[] }> {
  const { siteDir, ctx, site, recorder } = input;
  const notFoundHtml = renderErrorPage(ctx, { status: 404, message: 'Page not found', fatal: false }).html;
  const extras = await logTimed(
    logger,
    'outputs',
    () =>
      writeExtras({
        siteDir,
        publicDir: join(input.root, 'site/public'),
        baseUrl: ctx.baseUrl,
        routeRules: site.routeRules,
        csp: ctx.csp,
        notFoundHtml,
        sitemap: input.sitemap,
        collectors: input.collectors,
        pages: input.pages,
        previousOutputs: input.previousOutputs,
      }),
    (e) => `${e.outputs.files} files`,
  );
  const prerendered = await writeBuildMeta(siteDir, {
    buildId: ctx.buildId,
    timestamp: input.timestamp,
    routes: site.routes,
    routeRules: site.routeRules,
    built: input.built,
    pageChunks: ctx.assets.pageChunks,
  });
  const knownFiles = [...input.media, ...[...extras.outputHashes.keys()].map((file) => `/${file}`)];
  const warnings = await checkSite({
    site: recorder.inspected(),
    siteDir,
    files: knownFiles,
    baseUrl: ctx.baseUrl,
    routeRules: site.routeRules,
    payloadBudget: input.payloadBudget,
  });
  recorder.checked(warnings);
  reportWarnings(warnings, input.built.length, { strict: input.strict, verbose: input.verbose }, logger);
  return { extras, prerendered, warnings };
}
