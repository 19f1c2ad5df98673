import { join } from 'node:path';
import type { GraphQLSchema } from 'graphql';
import type { SiteData } from '../../runtime/shared/contract.ts';
import type { OutputCollector } from '../../runtime/shared/route-data.ts';
import { settleAll } from '../../runtime/shared/settle-all.ts';
import { bundleWithCache, type CachedBundle } from '../bundle/bundle-cache.ts';
import { cacheKeyFor } from '../config/cache-key.ts';
import type { ResolvedConfig } from '../config/config.ts';
import { cacheClock } from '../config/environment.ts';
import { loadSiteModules, type SiteModules } from '../config/site-modules.ts';
import { createMediaCopier, mediaOptionsOf, type MediaCopier } from '../content/media.ts';
import { pageImageResolver } from '../content/images/page-images.ts';
import { builtPages, keptPages } from './incremental/kept-pages.ts';
import { streamPages } from '../content/page-stream.ts';
import type { PageRecord } from '../content/query.ts';
import type { ReadAhead } from '../content/read-ahead.ts';
import { loadRichTextCache, type RichTextCache } from '../content/rich-text-cache.ts';
import { loadSiteData, logDrafts, openContentSource, type ContentSource } from '../content/source.ts';
import { loadSchema } from '../content/types-read.ts';
import { BuildErrors, createBuildError, type PageFailure } from '../errors/errors.ts';
import { describeCause } from '../errors/format-error.ts';
import { checkPageCount, isSiteOutput } from '../output/output.ts';
import { buildSearchIndex, type SearchIndexBuild } from '../output/search-index.ts';
import { contentSecurityPolicy } from '../render/csp.ts';
import type { RenderContext } from '../render/render.tsx';
import { renderPages, type RenderedPages } from '../render/render-pages.ts';
import { searchRoutesOf, type SearchRoutes } from '../render/search-documents.ts';
import { startRenderThreads, type RenderThreads } from '../render/render-threads.ts';
import { loadShell, type DocumentShell } from '../render/template.ts';
import { createBuildRecorder, type BuildRecorder } from '../report/recorder.ts';
import type { BuildReport } from '../report/report.ts';
import { formatMiB, plural } from '../terminal/format.ts';
import { logTimed, type Logger } from '../terminal/logger.ts';
import { createBuildProgress, type BuildProgress } from '../terminal/progress.ts';
import {
  forgetBuildState,
  hasBuildState,
  loadCacheUses,
  type BuildState,
  saveBuildState,
  saveCacheUses,
  seenWhole,
  touchBuildState,
} from './incremental/build-state.ts';
import { pruneCache, usesOf } from './cache-prune.ts';
import { renderingPages } from '../config/heap-growth.js';
import { mediaUrls } from '../content/page-depends.ts';
import { finishSite } from './finish-site.ts';
import { generatorFingerprint } from './generator-fingerprint.ts';
import { routeTypesOf, type RoutePlan } from './incremental/changed-routes.ts';
import { feedPlan, type FeedPlan } from './incremental/feed-plan.ts';
import { filesToRemove, savedBuild, type SavedBuild } from './incremental/incremental.ts';
import type { StateMemory } from './incremental/state-memory.ts';
import { decidePlan, logPlan, previousOf, type RenderPlan } from './plan.ts';
import { keepUnchanged } from './incremental/unchanged.ts';
import { renderContextFor } from './render-context.ts';
import { inShard, SHARD_MANIFEST_VERSION, shardPages, writeShardManifest } from './shard.ts';
import { inStagingFolder, type StagingFolder } from './staged-output.ts';

export interface BuildDeps {
  logger: Logger;
  /** @default () => new Date() */
  now?: () => Date;
  /** Counts per stage, for a progress display (terminal/progress-display.ts). @default a model nobody reads */
  progress?: BuildProgress;
  /** The folder's saved state, read ahead by a process that builds it again and again (site live). @default read as the build starts */
  states?: StateMemory;
  /**
   * Leaves saving the caches (the state, the rich text, the cache's prune) to the caller, through the
   * result's `saveCaches`: a resident publisher puts the update in the bucket first. @default false: saved before the build returns
   */
  saveCachesLater?: boolean;
}

export interface BuildResult {
  outDir: string;
  buildId: string;
  pages: number;
  bytes: number;
  media: number;
  /** GraphQL requests sent. */
  requests: number;
  durationMs: number;
  /** What build-report.json holds: sizes, slowest queries, content warnings. */
  report: BuildReport;
  /** Where the backend's change feed stood when this build asked it (the cursor its state keeps); null without a feed. */
  feedCursor: string | null;
  /**
   * With `saveCachesLater`, after a build that committed: saves the caches, once. Until it has, the cache
   * holds the previous build's state, which the next build distrusts or goes on from, as after a build
   * killed between its commit and its save.
   */
  saveCaches?: () => Promise<void>;
}

/**
 * Builds the whole site into `config.outDir`: the plan is decided, then the stages below run for it,
 * top to bottom (docs/architecture.md follows one page through them). Everything goes to a staging
 * folder that replaces the output only when every page succeeded, so a failed build leaves the previous
 * output as it was (build/staged-output.ts). Each call holds its own state: a resident process may call
 * it again and again.
 */
export async function build(
  config: ResolvedConfig,
  { logger, now = () => new Date(), progress = createBuildProgress(), states, saveCachesLater = false }: BuildDeps,
): Promise<BuildResult> {
  const run: BuildRun = {
    config,
    logger,
    now,
    states: states ?? null,
    saveCachesLater,
    started: performance.now(),
    recorder: createBuildRecorder(config, logger, progress, now()),
    // The time the cache's prune takes as now, read here: a bad value stops the build before it starts.
    pruneNow: cacheClock(),
    threads: null,
    source: null,
    buildId: null,
    reading: Promise.withResolvers(),
    inFlight: {},
  };
  return inStagingFolder(config, logger, {
    write: async (staging) => {
      run.threads = startThreads(config);
      const opened = await openSources(run);
      const streams = startStreams(run, opened, staging.dir);
      const context = await makeRenderContext(run, opened, streams);
      const decided = decideThePlan(run, opened, streams, context);
      const planned: Planned = { opened, streams, context, decided };
      if (decided.plan.kind === 'unchanged') return keepOutputAsItStands(run, planned, decided.plan, staging);
      const pages = await renderEveryPage(run, planned, staging.dir);
      const finished = await finishTheSite(run, planned, pages, staging.dir);
      const committed = await commitAndSaveCaches(run, planned, pages, finished, staging);
      const result = await reportTheBuild(run, planned, pages, finished, committed);
      return committed.saveCaches ? { ...result, saveCaches: committed.saveCaches } : result;
    },
    settle: () => settleAfterFailure(run),
    failed: (error) => run.recorder.failed(error, run.buildId),
    close: async () => {
      await run.threads?.close();
      await run.inFlight.search?.close();
      await run.source?.close();
    },
  });
}

// --- the build's state and its stages, in the order they run ---

/** What one build knows and holds across its stages: made anew by every call, nothing kept between builds. */
interface BuildRun {
  readonly config: ResolvedConfig;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly started: number;
  readonly recorder: BuildRecorder;
  readonly pruneNow: number | undefined;
  readonly states: StateMemory | null;
  readonly saveCachesLater: boolean;
  threads: RenderThreads | null;
  /** The content backend, once open: closed when the build ends either way. */
  source: ContentSource | null;
  /** Known from the render context on (stage 3): the failure's report names it. */
  buildId: string | null;
  /** Whether a kept page is read back, once the outputs are known (stage 4); on failure, every one is. */
  reading: PromiseWithResolvers<(routeId: string, path: string) => boolean>;
  /** What may still be writing into the staging folder when the build fails: settled before it is removed. */
  inFlight: { pages?: ReadAhead<PageRecord>; bundling?: Promise<unknown>; media?: MediaCopier; search?: SearchIndexBuild };
}

/**
 * Render threads start once enough pages are to render that they finish loading with pages left for them:
 * a few for a likely update in place (the cache holds a state for the folder); when every page renders,
 * at once if the count was given, otherwise once the site shows itself large enough (`everyPage`).
 */
function startThreads(config: ResolvedConfig): RenderThreads | null {
  const likelyUpdate = config.incremental && hasBuildState(config.cacheDir, config.outDir);
  return config.renderThreads > 0
    ? startRenderThreads(config.renderThreads, { afterPages: likelyUpdate ? THREADS_AFTER_PAGES : threadsWhenEveryPage(config) })
    : null;
}

/** When every page renders: the pages the main thread renders before the render threads start. */
function threadsWhenEveryPage(config: Pick<ResolvedConfig, 'renderThreadsGiven'>): number {
  return config.renderThreadsGiven ? 0 : THREADS_AFTER_PAGES_EVERY;
}

/** What stage 1 opens and reads: the backend, the site's code and data, the previous build and the change feed. */
interface Opened {
  source: ContentSource;
  site: SiteModules;
  richText: RichTextCache;
  generator: string;
  siteData: SiteData;
  saved: SavedBuild;
  /** The schema, parsed when first asked for; null without a change feed. */
  schema: (() => Promise<GraphQLSchema>) | null;
  feed: FeedPlan | null;
}

/** 1. The content backend and the site's code; the site query first, the cheapest way to find the endpoint unreachable. */
async function openSources(run: BuildRun): Promise<Opened> {
  const { config, logger } = run;
  const source = (run.source = await openContentSource(config, logger));
  const cacheKey = cacheKeyFor(config.cacheDir);
  if (cacheKey.problem)
    logger.warn(
      'cache',
      `${cacheKey.problem}: this build uses nothing an earlier build left in ${config.cacheDir} (set SITE_CACHE_KEY to share the cache between builds)`,
    );
  const [site, richText, generator] = await Promise.all([
    loadSiteModules(),
    loadRichTextCache(config.cacheDir),
    generatorFingerprint(config),
  ]);
  const siteData = await loadSiteData(source.client, site.siteData.query);
  // Where the backend's change feed stands, and which routes a change since the previous build reaches.
  const saved = await (run.states ? run.states.saved(generator) : savedBuild(config, generator));
  // The folder's state does not hold (other code, say): every page renders.
  if (!saved.state) run.threads?.startAfter(threadsWhenEveryPage(config));
  // The schema is parsed when a change is to be placed or the state saved: a build that finds nothing changed never needs it.
  let schemaLoaded: Promise<GraphQLSchema> | undefined;
  const schema = site.changeFeed ? () => (schemaLoaded ??= loadSchema(join(config.root, 'site/schema.graphql'))) : null;
  const feed = await feedPlan({
    feed: site.changeFeed,
    shard: config.shard !== null,
    source: `${source.endpoint}${config.drafts ? ' with drafts' : ''}`,
    client: source.client,
    saved,
    routes: site.routes,
    routeData: site.routeData,
    schema,
    logger,
  });
  return { source, site, richText, generator, siteData, saved, schema, feed };
}

/** What stage 2 sets going: the page stream (or how to start it), the media copier and the client bundle. */
interface Streams {
  failures: PageFailure[];
  /** The documents each route's pages read, for the next build's state. */
  documents: Map<string, Set<string>>;
  /** The routes the feed asks for and the pages it keeps; undefined: every route is asked for. */
  routePlan: RoutePlan | null | undefined;
  /** The feed says no route's documents can see a change. */
  nothingAsked: boolean;
  media: MediaCopier;
  mediaStarted: number;
  /** Tells each media copy whether the output already holds its file (an update in place). */
  present: PromiseWithResolvers<ReadonlySet<string> | undefined>;
  bundling: Promise<[CachedBundle, DocumentShell]>;
  /** Starts the page stream (into run.inFlight.pages), unless stage 2 already has. */
  startPages: () => ReadAhead<PageRecord>;
}

/** 2. Pages stream from the backend while the client bundles; media are copied as pages stream in. */
function startStreams(run: BuildRun, opened: Opened, staging: string): Streams {
  const { config, logger, recorder, inFlight } = run;
  const { source, site, richText, saved, feed } = opened;
  const failures: PageFailure[] = [];
  // Shard 1 of 1 wants every page, as one machine does: it fetches as one machine does.
  const keep =
    config.shard && config.shard.count > 1 ? (routeId: string, path: string) => inShard(config.shard!, routeId, path) : undefined;
  const documents = new Map<string, Set<string>>();
  const routePlan = feed?.routes;
  // The feed says no route's documents can see a change: with the same build id, the output stands as it is.
  const nothingAsked = routePlan?.crawl.size === 0;
  // The pages of asked routes whose entries give them as unchanged join the kept ones, after the asked
  // pages; which of them must be read back is known once the outputs are (stage 4): until then they wait.
  const reuse = routePlan
    ? {
        skip: (routeId: string) => !routePlan.crawl.has(routeId),
        unchanged: routePlan.unchanged,
        onUnchanged: (routeId: string, path: string) =>
          void routePlan.kept.push({ path, routeId, hash: saved.state!.pages.get(path)!.hash }),
        pages: keptPages(config.outDir, routePlan.kept, site.routes, site.routeData, run.reading.promise),
      }
    : undefined;
  // Media are copied as pages stream in, while the client bundles; whether the output already holds
  // them (an update in place) is known with the build id, and each copy waits for that.
  const mediaStarted = performance.now();
  const present = Promise.withResolvers<ReadonlySet<string> | undefined>();
  // Without a saved build to update in place, the output holds none of them: no copy waits.
  if (!saved.state) present.resolve(undefined);
  const media = (inFlight.media = createMediaCopier({
    origin: new URL(source.endpoint).origin,
    siteDir: staging,
    concurrency: Math.max(config.concurrency, 16),
    present: present.promise,
    ...mediaOptionsOf(config),
  }));
  const bundling = (inFlight.bundling = settleAll([
    logTimed(
      logger,
      'bundle',
      () => recorder.stage('bundle', () => bundleWithCache(config.root, staging, config.cacheDir)),
      (b) => `${Object.keys(b.manifest.pageChunks).length} route chunks${b.cached ? ' (cached)' : ''}`,
    ),
    loadShell(config.root),
  ]));
  // A page kept unread refers to the media the state recorded for it.
  const onPage = (record: PageRecord): void => {
    if (record.unread) media.add(mediaUrls(saved.state?.pages.get(record.job.path)?.media ?? ''), record.job.path);
    else record.media = media.addFrom(record.json, record.job.path);
  };
  const startPages = (): ReadAhead<PageRecord> =>
    (inFlight.pages = streamPages({
      site,
      client: source.client,
      concurrency: config.concurrency,
      cleanRichText: richText.clean,
      resolveImages: media.images ? pageImageResolver(media.images, site.images.richTextSizes) : undefined,
      recorder,
      failures,
      logger,
      keep,
      reuse,
      documents,
      onPage,
      renderingFrom: bundling,
      spillFile: join(staging, PAGES_AHEAD_FILE),
    }));
  // With nothing to ask of the backend, every page would be read back from the output, which this very
  // build id would leave as it is: they are read only once the build id is known to differ.
  if (!nothingAsked) startPages();
  return { failures, documents, routePlan, nothingAsked, media, mediaStarted, present, bundling, startPages };
}

/** What every page shares (stage 3). */
interface Context {
  bundle: CachedBundle;
  csp: string | null;
  ctx: RenderContext;
  timestamp: number;
}

/** 3. What every page shares, once the client is bundled, and the build id it makes. */
async function makeRenderContext(run: BuildRun, opened: Opened, streams: Streams): Promise<Context> {
  const { config } = run;
  const [bundle, shell] = await streams.bundling;
  const csp = config.csp ? contentSecurityPolicy(config) : null;
  const { ctx, timestamp } = await renderContextFor(config, {
    site: opened.siteData,
    modules: opened.site,
    assets: bundle.manifest,
    shell,
    csp,
    now: run.now,
  });
  run.buildId = ctx.buildId;
  return { bundle, csp, ctx, timestamp };
}

/** The plan (stage 4), and what it tells the stages after it. */
interface Decided {
  plan: RenderPlan;
  /** The build the plan goes on from; null: every page renders. */
  previous: BuildState | null;
  /** The routes whose pages give the site search entries; null: no search index (or a shard). */
  searchRoutes: SearchRoutes | null;
  collectors: OutputCollector[];
}

/** 4. The plan: every page, an update in place, the output as it stands, or a shard (build/plan.ts). */
function decideThePlan(run: BuildRun, opened: Opened, streams: Streams, { ctx }: Context): Decided {
  const { config, logger } = run;
  const { site, siteData, saved } = opened;
  const searchRoutes = config.search && !config.shard ? searchRoutesOf(site.routeData) : null;
  const plan = decidePlan({
    buildId: ctx.buildId,
    saved,
    shard: config.shard,
    nothingAsked: streams.nothingAsked,
    search: searchRoutes !== null,
  });
  logPlan(plan, { outDir: config.outDir, buildId: ctx.buildId }, logger);
  const previous = previousOf(plan);
  // Another build id (the site-wide data changed): every page renders.
  if (!previous) run.threads?.startAfter(threadsWhenEveryPage(config));
  streams.present.resolve(previous?.media);
  const collectors = site.outputs.map((output) => output({ site: siteData, baseUrl: ctx.baseUrl, buildTime: ctx.prerenderedAt }));
  // A kept page is read back when something needs its data: an output that takes no notes, the search
  // index, or a page whose state lacks what the outputs and the media copier need of it (or no previous build).
  const notesTaken = collectors.every((collector) => collector.kept);
  run.reading.resolve((routeId, path) => !notesTaken || !!searchRoutes?.has(routeId) || !seenWhole(previous?.pages.get(path)));
  return { plan, previous, searchRoutes, collectors };
}

/** What the stages after the plan work from: what stages 1 to 4 opened, started, made and decided. */
interface Planned {
  opened: Opened;
  streams: Streams;
  context: Context;
  decided: Decided;
}

/** The `unchanged` plan: nothing any page reads changed since this very build, which was built with the search as this one is. */
async function keepOutputAsItStands(
  run: BuildRun,
  { opened, streams, context: { ctx } }: Planned,
  plan: Extract<RenderPlan, { kind: 'unchanged' }>,
  staging: StagingFolder,
): Promise<BuildResult> {
  const { config, logger, recorder } = run;
  await run.inFlight.pages?.close();
  streams.media.stop();
  await streams.media.done();
  await staging.discard();
  const kept = await keepUnchanged(
    { config, previous: plan.previous, cursor: opened.feed!.cursor, baseUrl: ctx.baseUrl, routeRules: opened.site.routeRules, recorder },
    logger,
  );
  await touchBuildState(config.cacheDir, config.outDir);
  await pruneAfterBuild(config, logger, run.pruneNow);
  return {
    outDir: config.outDir,
    buildId: ctx.buildId,
    ...kept,
    requests: opened.source.client.requestCount(),
    durationMs: performance.now() - run.started,
    report: await recorder.succeeded(ctx.buildId, opened.source.drafts()),
    feedCursor: opened.feed?.cursor ?? null,
  };
}

/** What stage 5 leaves: every page written, the search index building, every media file copied. */
interface WrittenPages {
  rendered: RenderedPages;
  search: SearchIndexBuild | null;
}

/** 5. Render every page, keeping those the previous build in the folder already has; media copy alongside. */
async function renderEveryPage(run: BuildRun, { opened, streams, context, decided }: Planned, staging: string): Promise<WrittenPages> {
  const { ctx } = context;
  const { plan, previous, searchRoutes, collectors } = decided;
  const { config, logger, recorder, threads, inFlight } = run;
  const { site } = opened;
  const { media } = streams;
  // The stream starts now if stage 2 held it back (nothing asked, yet the output does not stand as it is).
  if (!inFlight.pages) streams.startPages();
  media.addFrom(ctx.siteJson);
  const writeStarted = performance.now();
  const reuseFrom = config.linkUnchanged && !previous && (await isSiteOutput(config.outDir)) ? config.outDir : null;
  // A shard leaves the site search's index to the merge, which indexes the joined site.
  // While pages render, the main heap may grow by at least 48 MB between full collections (heap-growth.js).
  const rendering = renderingPages();
  const rendered = await renderPages(inFlight.pages!, {
    ctx,
    siteDir: staging,
    payloadBudget: config.payloadBudget,
    sharedMarkup: config.sharedMarkup,
    reuseFrom,
    threads,
    previous,
    collectors,
    recorder,
    search: searchRoutes && { routes: searchRoutes, exclude: site.search.exclude },
  }).finally(rendering);
  // The stream has ended: what its crawl still holds (the calendar's lists of events, 11 MB at 100,000
  // pages, kept by the build's key until the crawl's generators go) goes with it; no stage holds it.
  inFlight.pages = undefined;
  // Every page is written: the render threads' heaps (about 70 MB each at 100,000 pages) go now, not
  // after the extra outputs, checks and state, which are where a large build's memory peaked.
  await threads?.close();
  const how = [
    threads && rendered.rendered > 0 ? `${rendered.onThreads} on ${plural(config.renderThreads, 'render thread')}` : '',
    previous ? `${rendered.kept} unchanged, kept` : '',
  ]
    .filter(Boolean)
    .join('; ');
  logger.info(
    'write',
    `${rendered.built.length} pages, ${formatMiB(rendered.bytes)} in ${Math.round(performance.now() - writeStarted)} ms${how ? ` (${how})` : ''}`,
  );
  failIfAny(streams.failures, rendered.built.length + streams.failures.length);
  // The site search's index builds from the pages on disk while the media and the extra outputs finish.
  const search =
    rendered.search &&
    (inFlight.search = buildSearchIndex(
      {
        pages: rendered.search,
        siteDir: staging,
        previous: previous && { outDir: config.outDir, search: previous.search, outputs: previous.outputs },
        exclude: site.search.exclude,
        language: ctx.language,
        cacheDir: config.drafts || !config.searchCache ? null : config.cacheDir,
        partitionPages: config.searchPartitionPages,
      },
      logger,
    ));
  if (plan.kind !== 'shard') await checkPageCount(config.outDir, rendered.built.length, config.allowShrink, previous?.pages.size);
  const mediaFailures = await media.done();
  const images = media.images?.counts();
  logger.info(
    'media',
    `${media.urls.size} files in ${Math.round(performance.now() - streams.mediaStarted)} ms${images && images.sources > 0 ? ` (${plural(images.sources, 'image')}: ${images.encoded} encoded, ${images.cached} from the cache)` : ''}`,
  );
  failIfAny(mediaFailures, media.urls.size);
  return { rendered, search: search || null };
}

/** What stage 6 wrote of what spans the site; `extras` null for a shard, which leaves them to the merge. */
type Finished = Pick<Awaited<ReturnType<typeof finishSite>>, 'prerendered' | 'warnings'> & {
  extras: Awaited<ReturnType<typeof finishSite>>['extras'] | null;
};

/** 6. What spans the site: extra outputs, build meta, latest.json, content checks. A shard leaves them to the merge (build/merge.ts). */
async function finishTheSite(
  run: BuildRun,
  { opened, streams, context, decided }: Planned,
  { rendered, search }: WrittenPages,
  staging: string,
): Promise<Finished> {
  const { csp, ctx, timestamp } = context;
  const { plan, previous, collectors } = decided;
  const { config, logger, recorder } = run;
  const { media } = streams;
  if (plan.kind === 'shard') {
    await writeShardManifest(staging, {
      version: SHARD_MANIFEST_VERSION,
      buildId: ctx.buildId,
      shard: plan.shard,
      timestamp,
      baseUrl: ctx.baseUrl,
      siteJson: ctx.siteJson,
      assets: ctx.assets,
      client: ctx.client,
      csp,
      pages: shardPages(recorder.inspected(), rendered.records),
      media: [...media.urls],
    });
    return { extras: null, prerendered: Array.from(rendered.built, (b) => b.path), warnings: [] };
  }
  return finishSite(
    {
      siteDir: staging,
      root: config.root,
      ctx,
      timestamp,
      site: opened.site,
      collectors: search ? [...collectors, search] : collectors,
      pages: builtPages(staging, config.outDir, previous),
      built: rendered.built,
      sitemap: rendered.records.sitemap(recorder.inspected().pages),
      media: media.urls,
      previousOutputs: previous?.outputs,
      payloadBudget: config.payloadBudget,
      strict: config.strict,
      verbose: config.logLevel === 'debug',
      recorder,
    },
    logger,
  );
}

/** 7. Commit: replace the output, or move in only what changed; then the caches for the next build (or, with saveCachesLater, how to save them). */
async function commitAndSaveCaches(
  run: BuildRun,
  { opened, streams, context, decided: { previous } }: Planned,
  { rendered, search }: WrittenPages,
  { extras, prerendered, warnings }: Finished,
  staging: StagingFolder,
): Promise<{ written: string[]; removed: string[]; saveCaches?: () => Promise<void> }> {
  const { config, logger, recorder } = run;
  const { site, richText, generator, schema, feed } = opened;
  const { media, routePlan, documents } = streams;
  const { bundle, ctx, timestamp } = context;
  const remove = previous && extras ? filesToRemove(previous, prerendered, extras.outputHashes, media.urls) : null;
  // The state describes the folder until the commit changes it in place: it goes first (forgetBuildState).
  if (previous) await forgetBuildState(config.cacheDir, config.outDir);
  const { written, removed } = await staging.commit(remove);
  if (previous)
    logger.info(
      'build',
      `updated in place: ${rendered.rendered} pages rendered, ${written.length} files written, ${removed.length} removed`,
    );
  // What the caches need of the search index, while it is open (the build closes it as it returns).
  const searchState = search ? await search.state() : null;
  const searchKeys = search ? await search.cacheKeys() : [];
  const saveCaches = once(async () => {
    // The output is committed: a cache that cannot be saved costs the next build time, not this build.
    await richText
      .save()
      .catch((error: unknown) =>
        logger.warn(
          'cache',
          `could not save the rich-text cache in ${config.cacheDir} (${describeCause(error)}); the next build cleans every rich text again`,
        ),
      );
    const feedState = feed &&
      schema && {
        cursor: feed.cursor,
        source: feed.source,
        routeTypes: routeTypesOf(
          await schema(),
          site.routes,
          site.routeData,
          documents,
          (id) => !routePlan || routePlan.crawl.has(id),
          feed.routeTypes,
        ),
      };
    const uses = await usesOf(
      {
        mediaKeys: () => media.cacheKeys(),
        mediaUrls: media.urls,
        searchKeys,
        bundleKey: bundle.key,
      },
      previous && (await loadCacheUses(config.cacheDir, config.outDir)),
    );
    if (extras) {
      const kept = await saveBuildState(
        config.cacheDir,
        config.outDir,
        {
          buildId: ctx.buildId,
          generator,
          timestamp,
          site: recorder.inspected(),
          records: rendered.records,
          outputs: extras.outputHashes,
          media: media.urls,
          search: searchState,
          feed: feedState,
          warnings,
          uses,
        },
        { keep: run.states !== null && config.incremental },
      );
      // A process that builds the folder again goes on from it without reading it back.
      if (kept) await run.states?.keep(generator, kept);
    }
    // A shard keeps no state, but what it used stays for its next build.
    else await saveCacheUses(config.cacheDir, config.outDir, uses);
    await pruneAfterBuild(config, logger, run.pruneNow);
  });
  if (run.saveCachesLater) return { written, removed, saveCaches };
  await saveCaches();
  return { written, removed };
}

/** 8. The report. */
async function reportTheBuild(
  run: BuildRun,
  { opened, streams, context: { ctx }, decided: { previous } }: Planned,
  { rendered }: WrittenPages,
  { extras, prerendered }: Finished,
  { written, removed }: { written: string[]; removed: string[] },
): Promise<BuildResult> {
  const { config, logger, recorder } = run;
  const { source, richText } = opened;
  const changes = {
    mode: previous ? 'incremental' : 'full',
    pagesRendered: rendered.rendered,
    pagesKept: rendered.kept,
    richText: { ...richText.counts },
    written,
    removed,
  } as const;
  await recorder.measureOutput(config.outDir, { pageBytes: rendered.bytes, outputs: extras?.outputs ?? { files: 0, bytes: 0 } }, changes);
  const result = {
    outDir: config.outDir,
    buildId: ctx.buildId,
    pages: prerendered.length,
    bytes: rendered.bytes,
    media: streams.media.urls.size,
    requests: source.client.requestCount(),
    durationMs: performance.now() - run.started,
  };
  logger.info(
    'build',
    `wrote ${result.pages} pages to ${config.outDir} in ${(result.durationMs / 1000).toFixed(1)} s (build ${ctx.buildId})`,
  );
  const drafts = source.drafts();
  logDrafts(drafts, logger);
  return { ...result, report: await recorder.succeeded(ctx.buildId, drafts), feedCursor: opened.feed?.cursor ?? null };
}

/** After a failure, before the staging folder goes: what may still write into it stops and settles. */
async function settleAfterFailure({ reading, inFlight, threads }: BuildRun): Promise<void> {
  // Kept pages waiting to know whether to be read back are read, so the stream can close.
  reading.resolve(() => true);
  await inFlight.pages?.close().catch(() => undefined);
  inFlight.media?.stop();
  await inFlight.bundling?.catch(() => undefined);
  await threads?.drain().catch(() => undefined);
  await inFlight.media?.done();
}

// --- internal ---

/** The scratch file in the staging folder where pages read ahead wait while the client bundles (content/packed-page.ts); gone when the pages are. */
const PAGES_AHEAD_FILE = '.pages-ahead';

/**
 * Keeps the build cache bounded once a build succeeded (cache-prune.ts, its default bounds): the
 * state just saved stays, and what no kept state uses goes. A cache that cannot be pruned costs disk
 * space, not this build.
 */
async function pruneAfterBuild(config: ResolvedConfig, logger: Logger, now: number | undefined): Promise<void> {
  try {
    const pruned = await pruneCache(config.cacheDir, { keep: config.outDir, entriesEveryMs: 60 * 60 * 1000, now });
    const gone = Object.entries(pruned.entries)
      .filter(([, n]) => n.count > 0)
      .map(([kind, n]) => `${n.count} ${kind} (${formatMiB(n.bytes)})`);
    if (pruned.removed.length > 0) gone.unshift(plural(pruned.removed.length, 'state'));
    logger.debug?.(
      'cache',
      `pruned in ${Math.round(pruned.ms)} ms${gone.length > 0 ? `: removed ${gone.join(', ')}` : ', nothing to remove'}`,
    );
  } catch (error) {
    logger.warn(
      'cache',
      `could not prune the build cache in ${config.cacheDir} (${describeCause(error)}); run \`site cache prune\` to try again`,
    );
  }
}

/**
 * Pages an update in place renders on the main thread before it starts the render threads. Most updates
 * render a handful (an edited news title: 5 pages); on two CPUs, a thread loading React and the site's
 * code for them took CPU from the main thread, which does the rest of the update. Interleaved on 10,803
 * pages, medians of 5: an edited title 6.09 -> 5.47 s, one small route's edit 4.40 -> 4.06 s, nothing
 * changed 1.49 -> 1.35 s, each 35-45 MB less at the peak. An update that renders more (an added article
 * shifts all 582 news list pages) starts them after these: 6.57 -> 6.51 s, within the noise (at 64 it
 * lost about 10%).
 */
const THREADS_AFTER_PAGES = 16;

/**
 * Pages a build that renders every page renders on the main thread before it starts the default's render
 * threads (a count given starts them at once). A thread loads React and the site's code (about 0.6 s of
 * CPU) while the main thread renders some 150 of the sample's pages: a site smaller than this never
 * starts them. On 2 CPUs, the sample's full build (145 pages): 3.0 -> 2.1 s of CPU, 2.4 -> 2.0 s; 1,614
 * pages: no loss seen (docs/decisions/render-threads.md).
 */
const THREADS_AFTER_PAGES_EVERY = 256;

/** `work`, run at most once: a second call has the first call's promise. */
function once(work: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  return () => (running ??= work());
}

function failIfAny(failures: readonly PageFailure[], total: number): void {
  if (failures.length > 0) throw createBuildError(BuildErrors.PagesFailed, [failures.length, total], { failures });
}
