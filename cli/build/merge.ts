import { constants } from 'node:fs';
import { copyFile, link, readdir, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import pLimit from 'p-limit';
import { findRoute, type RouteDefinition, type RouteParams } from '../../runtime/routes.ts';
import type { SiteData } from '../../runtime/shared/contract.ts';
import { compareText } from '../../runtime/shared/compare.ts';
import { settleAll } from '../../runtime/shared/settle-all.ts';
import { normalizePath, payloadFileFor } from '../../runtime/shared/paths.ts';
import type { ResolvedConfig } from '../config/config.ts';
import { loadSiteModules } from '../config/site-modules.ts';
import { isSafeSegment } from '../content/crawl.ts';
import { mapAhead } from '../content/read-ahead.ts';
import { lastmodOf } from '../content/query.ts';
import { BuildErrors, createBuildError } from '../errors/errors.ts';
import { checkPageCount } from '../output/output.ts';
import { prepareSiteFile, safePath } from '../output/write.ts';
import { readBytes, readText } from '../output/read.ts';
import { buildSearchIndex, type SearchIndexBuild } from '../output/search-index.ts';
import { createPageFeed } from '../render/page-feed.ts';
import { searchRoutesOf, type SearchedPage } from '../render/search-documents.ts';
import { loadShell } from '../render/template.ts';
import { createBuildRecorder, type BuildRecorder } from '../report/recorder.ts';
import type { SitemapEntry } from '../output/sitemap.ts';
import type { Logger } from '../terminal/logger.ts';
import { createBuildProgress } from '../terminal/progress.ts';
import type { BuildDeps, BuildResult } from './build.ts';
import { finishSite } from './finish-site.ts';
import { createRenderContext } from './render-context.ts';
import { builtPages } from './incremental/kept-pages.ts';
import { logPlan, mergePlan, type MergePlan, type ShardFolder } from './plan.ts';
import { readShardManifest, SHARDS_DIR } from './shard.ts';
import { inStagingFolder, type StagingFolder } from './staged-output.ts';

/** What the merge reads of the configuration. */
export type MergeOptions = Pick<
  ResolvedConfig,
  | 'allowShrink'
  | 'backgroundCleanup'
  | 'logLevel'
  | 'outDir'
  | 'payloadBudget'
  | 'reportFile'
  | 'root'
  | 'search'
  | 'searchPartitionPages'
  | 'strict'
>;

/**
 * `site build --merge <dirs…>`: joins the outputs of the shards of one build (`site build --shard i/n`)
 * into `config.outDir`, as one machine would have built it: every shard present and of the same build,
 * their pages and media linked in, then what spans the site (extra outputs, sitemap, 404, build meta,
 * content checks) and latest.json last. A missing or mismatched shard writes nothing.
 */
export async function mergeShards(
  config: MergeOptions,
  shardDirs: readonly string[],
  { logger, now = () => new Date(), progress = createBuildProgress() }: BuildDeps,
): Promise<BuildResult> {
  const started = performance.now();
  const plan = mergePlan(await readShards(shardDirs));
  logPlan(plan, { outDir: config.outDir, buildId: plan.shards[0]!.manifest.buildId }, logger);
  const recorder = createBuildRecorder(config, logger, progress, now());
  const run: MergeRun = { config, plan, logger, now, recorder, started, search: null };
  return inStagingFolder(config, logger, {
    write: (staging) => mergeInto(run, staging),
    failed: (error) => recorder.failed(error, plan.shards[0]!.manifest.buildId),
    close: async () => {
      await run.search?.close();
    },
  });
}

// --- internal ---

/** What one merge knows and holds: made anew by every call, nothing kept between merges. */
interface MergeRun {
  config: MergeOptions;
  plan: MergePlan;
  logger: Logger;
  now: () => Date;
  recorder: BuildRecorder;
  started: number;
  /** The site search's index while it builds, closed when the merge ends either way. */
  search: SearchIndexBuild | null;
}

/** The merge's stages, in the staging folder: each step below, then the commit and the report. */
async function mergeInto(run: MergeRun, staging: StagingFolder): Promise<BuildResult> {
  const { config, plan, logger, recorder } = run;
  const first = plan.shards[0]!.manifest;
  // 1. The shared context, checked against the shards': the same code, shell, options and site data.
  const [site, shell] = await Promise.all([loadSiteModules(), loadShell(config.root)]);
  const siteData = JSON.parse(first.siteJson) as SiteData;
  const { ctx, timestamp } = await createRenderContext({
    site: siteData,
    siteJson: first.siteJson,
    modules: site,
    assets: first.assets,
    shell,
    client: first.client,
    csp: first.csp,
    baseUrl: first.baseUrl,
    sourceDateEpoch: first.timestamp / 1000,
    outDir: config.outDir,
    now: run.now,
  });
  if (ctx.buildId !== first.buildId)
    throw createBuildError(BuildErrors.ShardsIncomplete, [
      `this machine's code, document shell or route rules make build ${ctx.buildId}, the shards built ${first.buildId}`,
    ]);

  // 2. Every shard's files, linked in; a file two shards both wrote (assets, shared media) must be the same.
  for (const { dir } of plan.shards) await linkTree(dir, staging.dir);
  logger.info(
    'merge',
    `${plan.shards.length} shards of build ${first.buildId}: ${plan.shards.reduce((n, m) => n + m.manifest.pages.length, 0)} pages`,
  );

  // 3. Every page, in route order, as one build would have seen it: its facts for the checks and the
  // sitemap, its data (from its payload) for the extra outputs and its search entries.
  const searchRoutes = config.search ? searchRoutesOf(site.routeData) : null;
  const searched: SearchedPage[] = [];
  const routeOrder = new Map(site.routes.map((r, i) => [r.id, i]));
  const pages = plan.shards
    .flatMap((m) => m.manifest.pages)
    .sort(
      (a, b) =>
        (routeOrder.get(a.inspected.route) ?? 0) - (routeOrder.get(b.inspected.route) ?? 0) ||
        compareText(a.inspected.path, b.inspected.path),
    );
  const collectors = site.outputs.map((output) => output({ site: siteData, baseUrl: ctx.baseUrl, buildTime: ctx.prerenderedAt }));
  const feed = createPageFeed({ collectors, searchRoutes, searched, site: siteData, routeOrder });
  const sitemap: SitemapEntry[] = [];
  const built: { path: string; route: number }[] = [];
  recorder.startPages();
  // Every page the manifests list is checked before any file is read: a manifest is input like any other.
  const routed = pages.map((page) => ({ page, params: paramsOf(site.routes, page.inspected) }));
  // Payloads are read a few ahead of the page that parses them: one after the other, the reads' waits were much of the merge.
  const withPayloads = mapAhead(routed, READS_AHEAD, async (page) => ({
    ...page,
    payload: await readText(safePath(resolve(staging.dir), payloadFileFor(page.page.inspected.path))),
  }));
  for await (const { page, params, payload } of withPayloads) {
    const { path, route: routeId } = page.inspected;
    const { data } = JSON.parse(payload) as { data: unknown };
    feed.read({ path, routeId, params, data }, { kept: false });
    recorder.restored(page.inspected, page.links);
    if (!page.noindex) sitemap.push({ path, lastmod: lastmodOf(page.lastmod) });
    built.push({ path, route: routeOrder.get(routeId) ?? 0 });
  }
  recorder.pagesDone();
  await checkPageCount(config.outDir, built.length, config.allowShrink);

  // 4. What spans the site, latest.json last; then the output is replaced as a whole.
  const media = new Set(plan.shards.flatMap((m) => m.manifest.media));
  // No search cache: the shards' manifests do not say whether they hold drafts, whose text must stay out of it.
  const search = searchRoutes
    ? (run.search = buildSearchIndex(
        {
          pages: searched,
          siteDir: staging.dir,
          previous: null,
          exclude: site.search.exclude,
          language: ctx.language,
          cacheDir: null,
          partitionPages: config.searchPartitionPages,
        },
        logger,
      ))
    : null;
  const outputs = search ? [...collectors, search] : collectors;
  const { extras, prerendered } = await finishSite(
    {
      siteDir: staging.dir,
      root: config.root,
      ctx,
      timestamp,
      site,
      collectors: outputs,
      pages: builtPages(staging.dir, config.outDir, null),
      built,
      sitemap,
      media,
      payloadBudget: config.payloadBudget,
      strict: config.strict,
      verbose: config.logLevel === 'debug',
      recorder,
    },
    logger,
  );
  await staging.commit(null);
  const bytes = pages.reduce((n, p) => n + p.bytes, 0);
  await recorder.measureOutput(
    config.outDir,
    { pageBytes: bytes, outputs: extras.outputs },
    { mode: 'full', pagesRendered: 0, pagesKept: pages.length, richText: { cleaned: 0, reused: 0 }, written: [], removed: [] },
  );
  const result = {
    outDir: config.outDir,
    buildId: first.buildId,
    pages: prerendered.length,
    bytes,
    media: media.size,
    requests: 0,
    durationMs: performance.now() - run.started,
  };
  logger.info(
    'build',
    `merged ${result.pages} pages into ${config.outDir} in ${(result.durationMs / 1000).toFixed(1)} s (build ${first.buildId})`,
  );
  return { ...result, report: await recorder.succeeded(first.buildId), feedCursor: null };
}

/** Each folder with the manifest of the shard it holds, in the order given (mergePlan checks them). */
async function readShards(dirs: readonly string[]): Promise<ShardFolder[]> {
  return Promise.all(
    dirs.map(async (dir) => ({
      dir,
      manifest: (await readShardManifest(dir)) ?? shardsIncomplete(`${dir} holds no shard of a build (no ${SHARDS_DIR}/*.json)`),
    })),
  );
}

function shardsIncomplete(problem: string): never {
  throw createBuildError(BuildErrors.ShardsIncomplete, [problem]);
}

/**
 * The params of a page a shard lists, from its route: refused unless this machine's route table matches
 * it and its path is one a build writes (normalised, every segment a safe one), so that no file outside
 * the staging folder is ever read for it.
 */
function paramsOf(routes: readonly RouteDefinition[], { path, route: routeId }: { path: string; route: string }): RouteParams {
  const route = routes.find((r) => r.id === routeId);
  const params = route && isPagePath(path) ? findRoute([route], path)?.params : undefined;
  if (!params)
    throw createBuildError(BuildErrors.ShardsIncomplete, [
      `the shards list ${JSON.stringify(path)} under route ${routeId}, which this machine's site/routes.ts does not match`,
    ]);
  return params;
}

function isPagePath(path: string): boolean {
  return path === '/' || (path === normalizePath(path) && path.slice(1).split('/').every(isSafeSegment));
}

/** Payload files read ahead of the merge's walk over the pages. */
const READS_AHEAD = 32;
/** Files linked at a time: each link waits on the file system, and one after the other they cost seconds. */
const LINKS_AT_ONCE = 32;

/** Hard-links (or copies) every file of `from` but its shard manifest into `to`; a file already there must be the same. */
async function linkTree(from: string, to: string): Promise<void> {
  const files = (await readdir(from, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => relative(from, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((file) => !file.startsWith(`${SHARDS_DIR}/`));
  const limit = pLimit(LINKS_AT_ONCE);
  // After a failure the files still queued are skipped: the staging folder is discarded anyway.
  let failed = false;
  const linkOne = async (file: string): Promise<void> => {
    if (failed) return;
    await linkFile(from, to, file).catch((error: unknown) => {
      failed = true;
      throw error;
    });
  };
  await settleAll(files.map((file) => limit(() => linkOne(file))));
}

async function linkFile(from: string, to: string, file: string): Promise<void> {
  const source = join(from, file);
  const target = await prepareSiteFile(to, file);
  try {
    await link(source, target).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') throw error;
      // Never over a file already there (two names one file system folds together): that is compared below.
      await copyFile(source, target, constants.COPYFILE_EXCL);
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (!(await sameFile(source, target))) throw createBuildError(BuildErrors.ShardsIncomplete, [`two shards wrote different ${file}`]);
  }
}

/** Whether two files hold the same bytes: the same file, or the same size and content (read only then). */
async function sameFile(a: string, b: string): Promise<boolean> {
  const [statA, statB] = await Promise.all([stat(a), stat(b)]);
  if (statA.dev === statB.dev && statA.ino === statB.ino) return true;
  if (statA.size !== statB.size) return false;
  const [bytesA, bytesB] = await Promise.all([readBytes(a), readBytes(b)]);
  return bytesA.equals(bytesB);
}
