import { cp } from 'node:fs/promises';
import pLimit from 'p-limit';
import { join } from 'node:path';
import type { BuildMeta, LatestBuild, SiteData } from '../../runtime/shared/contract.ts';
import { backoffDelay, createGraphQLClient, isGraphQLRequestError, type GraphQLClientHandle } from '../../runtime/shared/graphql.ts';
import { htmlFileFor, LATEST_FILE, metaFileFor, payloadFileFor } from '../../runtime/shared/paths.ts';
import type { OutputCollector } from '../../runtime/shared/route-data.ts';
import { compareText } from '../../runtime/shared/compare.ts';
import { serializeJson } from '../../runtime/shared/serialize.ts';
import { siteInfoOf } from '../../runtime/site-context.ts';
import { createBuildId } from './build-id.ts';
import { contentHash, loadBuildState, pageHash, saveBuildState, type PageRecordForState } from './build-state.ts';
import { bundleWithCache } from '../bundle/bundle-cache.ts';
import { clientConfigOf, type ResolvedConfig } from '../config/config.ts';
import { crawl, createDuplicateCheck } from '../content/crawl.ts';
import { startEmbeddedBackend, type Backend } from '../content/embedded-backend.ts';
import { BuildErrors, createBuildError, type PageFailure } from '../errors/errors.ts';
import { describeCause } from '../errors/format-error.ts';
import type { Logger } from '../terminal/logger.ts';
import { PUBLISHED_ONLY, withoutDrafts } from '../content/drafts.ts';
import { generatorFingerprint } from './generator-fingerprint.ts';
import { removeTrash } from '../output/swap.ts';
import { contentSecurityPolicy } from '../render/csp.ts';
import { createMediaCopier, mediaFileFor, type MediaCopier } from '../content/media.ts';
import { checkPageCount, commitStagingChanges, commitStagingDir, createStagingDir, discardStagingDir, readBuild } from '../output/output.ts';
import { queryPages, type PageRecord } from '../content/query.ts';
import { readAhead, type ReadAhead } from '../content/read-ahead.ts';
import { renderRedirectPages } from '../output/redirects.ts';
import { loadRichTextCache } from '../content/rich-text-cache.ts';
import { createPageRenderer, type PageDone, type PageRenderer } from '../render/page-renderer.ts';
import { renderErrorPage, type RenderContext } from '../render/render.tsx';
import { createPageDispatcher, startRenderThreads } from '../render/render-threads.ts';
import { sanitizeData } from '../content/sanitize.ts';
import { loadSiteModules } from '../config/site-modules.ts';
import { renderRobots, renderSitemap, type SitemapEntry } from '../output/sitemap.ts';
import { createBuildProgress, type BuildProgress } from '../terminal/progress.ts';
import type { BuildChanges, BuildReport } from '../report/report.ts';
import type { OutputTally } from '../report/output-size.ts';
import { createBuildRecorder } from '../report/recorder.ts';
import { loadShell } from '../render/template.ts';
import { writeSiteFile } from '../output/write.ts';

export interface BuildDeps {
  logger: Logger;
  /** @default () => new Date() */
  now?: () => Date;
  /** Counts per stage, for a progress display (progress-display.ts). @default a model nobody reads */
  progress?: BuildProgress;
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
}

/**
 * Builds the whole site into `config.outDir`: bundle, crawl, query, render, write; then the build
 * meta and, last, latest.json. Everything goes to a staging folder that replaces the output only
 * when every page succeeded, so a failed build leaves the previous output as it was.
 */
export async function build(config: ResolvedConfig, { logger, now = () => new Date(), progress = createBuildProgress() }: BuildDeps): Promise<BuildResult> {
  const started = performance.now();
  const recorder = createBuildRecorder(config, logger, progress, now());
  let buildIdSoFar: string | null = null;
  const staging = await createStagingDir(config.outDir, (message) => logger.warn('output', message));
  let backend: Backend | null = null;
  // What may still be writing into the staging folder when the build fails: settled before it is removed.
  let pages: ReadAhead<PageRecord> | null = null;
  let bundling: Promise<unknown> | null = null;
  let renderer: PageRenderer | null = null;
  let media: MediaCopier | null = null;
  // Render threads load the site's code while the build starts the backend, queries and bundles.
  const threads = config.renderThreads > 0 ? startRenderThreads(config.renderThreads) : null;
  try {
    if (!config.endpoint) {
      backend = await startEmbeddedBackend().catch((cause: unknown) => {
        throw createBuildError(BuildErrors.BackendFailed, ['could not be started', describeCause(cause)], { cause });
      });
      logger.info('backend', `embedded sample backend at ${backend.url}`);
    }
    const endpoint = config.endpoint ?? backend!.url;
    const transport = createGraphQLClient({
      endpoint,
      getToken: () => config.token,
      headers: config.drafts ? {} : PUBLISHED_ONLY,
      timeoutMs: config.timeoutMs,
      retries: config.retries,
      backoffMs: (n) => backoffDelay(n, config.retryDelayMs),
    });
    // Every answer passes the draft filter where it enters the build, unless drafts are wanted (cli/content/drafts.ts).
    const drafts = config.drafts ? null : withoutDrafts(transport);
    const client = drafts?.client ?? transport;
    const [siteModules, richText, generator] = await Promise.all([loadSiteModules(), loadRichTextCache(config.cacheDir), generatorFingerprint(config)]);

    // The site query goes first: it is the cheapest way to learn that the endpoint is unreachable.
    const site = await loadSiteData(client, siteModules.siteData.query);
    const siteJson = serializeJson(site);

    // Pages stream from the backend to the disk: the crawl starts now and runs a bounded distance ahead
    // of rendering, so waiting on the backend overlaps bundling and rendering, and memory does not grow
    // with the site.
    const failures: PageFailure[] = [];
    const queryStarted = performance.now();
    const jobs = recorder.jobs(crawl(siteModules.routes, siteModules.routeData, recorder.crawlClient(client), (f) => failures.push(f)), siteModules.routes.length);
    pages = readAhead(
      afterLast(queryPages(jobs, siteModules.routeData, recorder.pageClient(client), config.concurrency, failures, richText.clean), (count) => {
        recorder.queried();
        logger.info('query', `${count} pages from ${siteModules.routes.length} routes, ${client.requestCount()} requests in ${Math.round(performance.now() - queryStarted)} ms`);
      }),
      READ_AHEAD,
    );
    const bundleAndShell = settleAll([
      timed(logger, 'bundle', () => recorder.stage('bundle', () => bundleWithCache(config.root, staging, config.cacheDir)), (b) => `${Object.keys(b.manifest.pageChunks).length} route chunks${b.cached ? ' (cached)' : ''}`),
      loadShell(config.root),
    ] as const);
    bundling = bundleAndShell;
    const [bundle, shell] = await bundleAndShell;
    const assets = bundle.manifest;

    const info = siteInfoOf(site);
    const baseUrl = config.baseUrl ?? (info.url || 'http://localhost');
    // The id covers what every page shares: code, shell, options, rules and the site-wide data. A page's
    // own content is not part of it, so editing one item leaves every other page's bytes unchanged.
    const csp = config.csp ? contentSecurityPolicy({ publicEndpoint: config.publicEndpoint, sentryDsn: config.sentryDsn }) : null;
    const buildId = createBuildId([assets.hash, shell.parts.join('\0'), JSON.stringify({ baseUrl, client: clientConfigOf(config), routeRules: siteModules.routeRules, csp }), siteJson]);
    buildIdSoFar = buildId;
    // Every page of one build id carries the same prerenderedAt, the time that build was first made: a
    // build into a folder that holds the same id (incremental or --full) keeps its timestamp, so the
    // pages it keeps and the pages it renders agree, byte for byte, with a full build.
    const timestamp = config.sourceDateEpoch !== null ? config.sourceDateEpoch * 1000 : ((await previousTimestamp(config.outDir, buildId)) ?? now().getTime());
    const ctx: RenderContext = {
      buildId,
      prerenderedAt: new Date(timestamp).toISOString(),
      site,
      siteJson,
      siteName: info.name,
      language: info.language,
      baseUrl,
      routes: siteModules.routes,
      layouts: siteModules.layouts,
      modules: siteModules.modules,
      assets,
      shell,
      client: clientConfigOf(config),
      csp,
    };

    // An output folder that holds this very build id (same code, options and site-wide data) is updated
    // in place: only pages whose route, path or data changed are rendered again.
    const found = config.incremental ? await loadBuildState(config.cacheDir, config.outDir, buildId, generator) : { state: null, reason: '--full' };
    const previous = found.state;
    if (previous) logger.info('build', `updating build ${buildId} in ${config.outDir}: only pages whose data changed are rendered (--full renders every page)`);
    else logger.debug?.('build', `rendering every page: ${(found as { reason: string }).reason}`);
    const mediaStarted = performance.now();
    media = createMediaCopier({
      origin: new URL(endpoint).origin,
      siteDir: staging,
      concurrency: Math.max(config.concurrency, 16),
      cacheDir: config.cacheDir,
      present: previous?.media,
      timeoutMs: config.timeoutMs,
      retries: config.retries,
      retryDelayMs: config.retryDelayMs,
      maxBytes: config.mediaMaxBytes,
      token: config.token,
    });
    media.addFrom(siteJson);
    const collectors = siteModules.outputs.map((output) => output({ site, baseUrl, buildTime: ctx.prerenderedAt }));
    const sitemap: SitemapEntry[] = [];
    const built: { path: string; route: number }[] = [];
    const routeOrder = new Map(siteModules.routes.map((r, i) => [r.id, i]));
    const checkDuplicate = createDuplicateCheck();
    const writeStarted = performance.now();
    renderer = createPageRenderer(ctx, staging, config.payloadBudget);
    const { routes: _routes, layouts: _layouts, modules: _modules, ...threadCtx } = ctx;
    threads?.init({ ctx: threadCtx, siteDir: staging, payloadBudget: config.payloadBudget });
    let onThreads = 0;
    let bytes = 0;
    let kept = 0;
    const stateRecords: PageRecordForState[] = [];
    const take = (done: readonly PageDone[], threaded = false): void => {
      if (threaded) onThreads += done.length;
      for (const page of done) {
        recorder.rendered(page.path, page.routeId, page.inspection);
        if (!page.noindex) sitemap.push({ path: page.path, lastmod: page.lastmod });
        stateRecords.push({ hash: page.hash, noindex: page.noindex, lastmod: page.lastmod, bytes: page.bytes });
        bytes += page.bytes;
      }
    };
    const dispatch = createPageDispatcher(renderer, threads, take);
    recorder.startPages();
    for await (const record of pages) {
      const { route, path, params } = record.job;
      checkDuplicate(path, record.data);
      built.push({ path, route: routeOrder.get(route.id) ?? 0 });
      for (const collector of collectors) collector.page({ path, routeId: route.id, params, data: record.data });
      media.addFrom(record.json, path);
      // Only a page the previous build had is hashed here, to compare; the others are hashed where they render.
      const before = previous?.pages.get(path);
      const hash = before ? pageHash(route.id, path, record.json) : undefined;
      if (before && before.hash === hash) {
        recorder.restored(before.inspected, before.links);
        if (!before.noindex) sitemap.push({ path, lastmod: before.lastmod });
        stateRecords.push(before);
        bytes += before.bytes;
        kept++;
        continue;
      }
      await dispatch.page({ routeId: route.id, path, params, json: record.json, lastmod: record.lastmod, hash }, record.data);
    }
    await dispatch.finish();
    await renderer.drain();
    await threads?.drain();
    recorder.pagesDone();
    const rendered = built.length - kept;
    const how = [threads && rendered > 0 ? `${onThreads} on ${config.renderThreads} render thread${config.renderThreads === 1 ? '' : 's'}` : '', previous ? `${kept} unchanged, kept` : ''].filter(Boolean).join('; ');
    logger.info('write', `${built.length} pages, ${(bytes / 1024 / 1024).toFixed(1)} MiB in ${Math.round(performance.now() - writeStarted)} ms${how ? ` (${how})` : ''}`);
    failIfAny(failures, built.length + failures.length);
    await checkPageCount(config.outDir, built.length, config.allowShrink, previous?.pages.size);
    const mediaFailures = await media.done();
    logger.info('media', `${media.urls.size} files in ${Math.round(performance.now() - mediaStarted)} ms`);
    failIfAny(mediaFailures, media.urls.size);

    const outputHashes = new Map<string, string>();
    const outputs = await timed(logger, 'outputs', () => writeOutputs(collectors, staging, outputHashes, previous?.outputs), (t) => `${t.files} files`);
    await cp(join(config.root, 'site/public'), staging, { recursive: true });
    for (const page of renderRedirectPages(siteModules.routeRules, baseUrl, csp)) await writeSiteFile(staging, page.file, page.content);
    await writeSiteFile(staging, '404.html', renderErrorPage(ctx, { status: 404, message: 'Page not found', fatal: false }).html);
    sitemap.sort((a, b) => compareText(a.path, b.path));
    await writeSiteFile(staging, 'sitemap.xml', renderSitemap(sitemap, baseUrl));
    await writeSiteFile(staging, 'robots.txt', renderRobots(baseUrl));

    const chunks = Object.fromEntries(siteModules.routes.map((r) => [r.id, assets.pageChunks[r.page] ?? []]));
    const prerendered = built.sort((a, b) => a.route - b.route || compareText(a.path, b.path)).map((b) => b.path);
    const meta: BuildMeta = { id: buildId, timestamp, matcher: siteModules.routeRules, prerendered, chunks };
    await writeSiteFile(staging, metaFileFor(buildId), JSON.stringify(meta));
    // latest.json is the commit point for clients: written after everything it points to exists.
    const latest: LatestBuild = { id: buildId, timestamp };
    await writeSiteFile(staging, LATEST_FILE, JSON.stringify(latest));
    // An incremental build's staging folder lacks the unchanged outputs; the output folder is no guide,
    // as it still holds the files of pages and outputs this build removes.
    const files = [...media.urls, ...[...outputHashes.keys()].map((file) => `/${file}`)];
    const facts = { baseUrl, routeRules: siteModules.routeRules, outputs, pageBytes: bytes, files };
    await recorder.checkOutput(staging, facts);

    const changes: BuildChanges = { mode: previous ? 'incremental' : 'full', pagesRendered: rendered, pagesKept: kept, richText: { ...richText.counts }, written: [], removed: [] };
    if (previous) {
      const gone = new Set(previous.pages.keys());
      for (const b of built) gone.delete(b.path);
      const remove = [...gone].flatMap((path) => [htmlFileFor(path), payloadFileFor(path)]);
      remove.push(...[...previous.outputs.keys()].filter((file) => !outputHashes.has(file)));
      remove.push(...[...previous.media].filter((url) => !media!.urls.has(url)).map((url) => mediaFileFor(url)));
      Object.assign(changes, await commitStagingChanges(staging, config.outDir, remove));
      logger.info('build', `updated in place: ${rendered} pages rendered, ${changes.written.length} files written, ${changes.removed.length} removed`);
    } else {
      await commitStagingDir(staging, config.outDir);
    }
    // The output is committed: a cache that cannot be saved costs the next build time, not this build.
    await richText.save().catch((error: unknown) => logger.warn('cache', `could not save the rich-text cache in ${config.cacheDir} (${describeCause(error)}); the next build cleans every rich text again`));
    await saveBuildState(config.cacheDir, config.outDir, { buildId, generator, timestamp, site: recorder.inspected(), records: stateRecords, outputs: outputHashes, media: media.urls });
    await recorder.measureOutput(config.outDir, facts, changes);
    const result: Omit<BuildResult, 'report'> = { outDir: config.outDir, buildId, pages: prerendered.length, bytes, media: media.urls.size, requests: client.requestCount(), durationMs: performance.now() - started };
    logger.info('build', `wrote ${result.pages} pages to ${config.outDir} in ${(result.durationMs / 1000).toFixed(1)} s (build ${buildId})`);
    const leftOut = drafts?.left() ?? 0;
    if (leftOut > 0) logger.info('drafts', `${leftOut} draft${leftOut === 1 ? '' : 's'} left out (--drafts publishes them)`);
    else if (config.drafts) logger.warn('drafts', 'drafts are published (--drafts)');
    return { ...result, report: await recorder.succeeded(buildId, { published: config.drafts, leftOut }) };
  } catch (error) {
    await pages?.close().catch(() => undefined);
    await bundling?.catch(() => undefined);
    await threads?.drain().catch(() => undefined);
    await renderer?.drain().catch(() => undefined);
    await media?.done();
    await discardStagingDir(staging);
    await recorder.failed(error, buildIdSoFar);
    throw error;
  } finally {
    await threads?.close();
    await backend?.close();
    // The trees earlier swaps replaced, deleted last: deleting a large tree slows the writes after it.
    await removeTrash(config.outDir);
  }
}

// --- internal ---

/** The timestamp of the build in `outDir` when it is build `buildId`, else null. */
async function previousTimestamp(outDir: string, buildId: string): Promise<number | null> {
  const latest = await readBuild(outDir).then((b) => b.latest, () => null);
  return latest?.id === buildId ? latest.timestamp : null;
}

async function loadSiteData(client: GraphQLClientHandle, query: string): Promise<SiteData> {
  try {
    return sanitizeData(await client.request<SiteData>(query));
  } catch (cause) {
    if (isGraphQLRequestError(cause) && (cause.kind === 'network' || cause.kind === 'timeout')) {
      throw createBuildError(BuildErrors.EndpointUnreachable, [client.endpoint, cause.reason], { cause });
    }
    if (isGraphQLRequestError(cause) && cause.kind === 'redirect') throw createBuildError(BuildErrors.EndpointRedirected, [cause.endpoint, cause.reason], { cause });
    throw createBuildError(BuildErrors.SiteQueryFailed, [isGraphQLRequestError(cause) ? cause.operation : 'site', describeCause(cause)], { cause });
  }
}

/** Like Promise.all, but waits for every promise to settle before rejecting with the first failure. */
async function settleAll<const T extends readonly Promise<unknown>[]>(promises: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}

/** Records pulled ahead of rendering: enough to keep the crawl busy while pages render, few enough to stay small. */
const READ_AHEAD = 512;

/**
 * Writes the extra outputs' files, noting each one's hash in `hashes`; a file whose hash is the one in
 * `previous` (the output being updated in place) is left as it is.
 */
async function writeOutputs(collectors: readonly OutputCollector[], siteDir: string, hashes: Map<string, string>, previous?: ReadonlyMap<string, string>): Promise<OutputTally> {
  const tally = { files: 0, bytes: 0 };
  // A site may have an output file per item (a calendar per event): written a few at a time, not one
  // after the other, so the build does not wait on each file system round trip in turn.
  const limit = pLimit(OUTPUT_WRITES);
  const writes: Promise<void>[] = [];
  for (const collector of collectors) {
    for (const { file, content } of await collector.files()) {
      const hash = contentHash(content);
      hashes.set(file, hash);
      if (previous?.get(file) !== hash) writes.push(limit(() => writeSiteFile(siteDir, file, content)));
      tally.files++;
      tally.bytes += Buffer.byteLength(content);
    }
  }
  await settleAll(writes);
  return tally;
}

/** Output files written at once. */
const OUTPUT_WRITES = 16;

/** Passes `source` through and calls `onEnd` with the number of items once it is exhausted. */
async function* afterLast<T>(source: AsyncIterable<T>, onEnd: (count: number) => void): AsyncGenerator<T> {
  let count = 0;
  for await (const item of source) {
    count++;
    yield item;
  }
  onEnd(count);
}

function failIfAny(failures: readonly PageFailure[], total: number): void {
  if (failures.length > 0) throw createBuildError(BuildErrors.PagesFailed, [failures.length, total], { failures });
}

async function timed<T>(logger: Logger, stage: string, run: () => Promise<T>, summary: (result: T) => string): Promise<T> {
  const start = performance.now();
  const result = await run();
  logger.info(stage, `${summary(result)} in ${Math.round(performance.now() - start)} ms`);
  return result;
}
