import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import type { BuildMeta, LatestBuild, SiteData } from '../runtime/shared/contract.ts';
import { backoffDelay, createGraphQLClient, isGraphQLRequestError, type GraphQLClientHandle } from '../runtime/shared/graphql.ts';
import { LATEST_FILE, metaFileFor } from '../runtime/shared/paths.ts';
import type { OutputContext, OutputDefinition } from '../runtime/shared/route-data.ts';
import { serializeJson } from '../runtime/shared/serialize.ts';
import { siteInfoOf } from '../runtime/site-context.ts';
import { createBuildId } from './build-id.ts';
import { bundleWithCache } from './bundle-cache.ts';
import { clientConfigOf, type ResolvedConfig } from './config.ts';
import { checkDuplicates, crawl } from './crawl.ts';
import { startEmbeddedBackend, type Backend } from './embedded-backend.ts';
import { BuildErrors, createBuildError, type PageFailure } from './errors.ts';
import { describeCause } from './format-error.ts';
import type { Logger } from './logger.ts';
import { collectMediaUrls, copyMedia } from './media.ts';
import { checkPageCount, commitStagingDir, createStagingDir, discardStagingDir } from './output.ts';
import { queryPages } from './query.ts';
import { renderRedirectPages } from './redirects.ts';
import { renderErrorPage, renderPage, type RenderContext } from './render.tsx';
import { sanitizeData } from './sanitize.ts';
import { loadSiteModules } from './site-modules.ts';
import { renderRobots, renderSitemap, type SitemapEntry } from './sitemap.ts';
import { createBuildProgress, type BuildProgress } from './progress.ts';
import type { BuildReport } from './report.ts';
import type { OutputTally } from './report-output.ts';
import { createBuildRecorder } from './report-recorder.ts';
import { loadShell } from './template.ts';
import { createPageWriter, writeSiteFile } from './write.ts';

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
  const staging = await createStagingDir(config.outDir);
  let backend: Backend | null = null;
  try {
    if (!config.endpoint) {
      backend = await startEmbeddedBackend().catch((cause: unknown) => {
        throw createBuildError(BuildErrors.BackendFailed, ['could not be started', describeCause(cause)], { cause });
      });
      logger.info('backend', `embedded sample backend at ${backend.url}`);
    }
    const endpoint = config.endpoint ?? backend!.url;
    const client = createGraphQLClient({ endpoint, getToken: () => config.token, timeoutMs: config.timeoutMs, retries: config.retries, backoffMs: (n) => backoffDelay(n, config.retryDelayMs) });
    const siteModules = await loadSiteModules();

    // The site query goes first: it is the cheapest way to learn that the endpoint is unreachable.
    const site = await loadSiteData(client, siteModules.siteData.query);
    const siteJson = serializeJson(site);
    // Bundling runs beside crawling and querying; settle both before anything can discard the staging folder.
    const failures: PageFailure[] = [];
    const [bundle, shell, records] = await settleAll([
      timed(logger, 'bundle', () => recorder.stage('bundle', () => bundleWithCache(config.root, staging, config.cacheDir)), (b) => `${Object.keys(b.manifest.pageChunks).length} route chunks${b.cached ? ' (cached)' : ''}`),
      loadShell(config.root),
      timed(
        logger,
        'query',
        async () => {
          const jobs = recorder.jobs(crawl(siteModules.routes, siteModules.routeData, recorder.crawlClient(client), (f) => failures.push(f)), siteModules.routes.length);
          const { records } = await queryPages(jobs, siteModules.routeData, recorder.pageClient(client), config.concurrency, failures);
          recorder.queried();
          return records;
        },
        (r) => `${r.length} pages from ${siteModules.routes.length} routes, ${client.requestCount()} requests`,
      ),
    ] as const);
    failIfAny(failures, records.length + failures.length);
    const assets = bundle.manifest;
    const order = new Map(siteModules.routes.map((r, i) => [r.id, i]));
    records.sort((a, b) => (order.get(a.job.route.id) ?? 0) - (order.get(b.job.route.id) ?? 0) || (a.job.path < b.job.path ? -1 : a.job.path > b.job.path ? 1 : 0));
    checkDuplicates(records.map((r) => r.job.path));
    await checkPageCount(config.outDir, records.length, config.allowShrink);

    const info = siteInfoOf(site);
    const baseUrl = config.baseUrl ?? (info.url || 'http://localhost');
    // Every input that changes the output is part of the id: code, shell, options, rules and content.
    const buildId = createBuildId([
      assets.hash,
      shell.parts.join('\0'),
      JSON.stringify({ baseUrl, client: clientConfigOf(config), routeRules: siteModules.routeRules }),
      siteJson,
      ...records.flatMap((r) => [r.job.path, r.json]),
    ]);
    buildIdSoFar = buildId;
    const timestamp = config.sourceDateEpoch !== null ? config.sourceDateEpoch * 1000 : now().getTime();

    const mediaUrls = collectMediaUrls([siteJson, ...records.map((r) => r.json)]);
    const mediaFailures = await timed(logger, 'media', () => copyMedia(mediaUrls, new URL(endpoint).origin, staging, Math.max(config.concurrency, 16)), () => `${mediaUrls.size} files`);
    failIfAny(mediaFailures, mediaUrls.size);

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
    };
    const sitemap: SitemapEntry[] = [];
    const bytes = await timed(
      logger,
      'write',
      async () => {
        const writer = createPageWriter(staging);
        recorder.startPages(records.length);
        for (const record of records) {
          const { route, path, params } = record.job;
          const rendered = renderPage(ctx, route, path, params, record.json);
          recorder.rendered(path, route.id, rendered);
          if (!rendered.head.noindex) sitemap.push({ path, lastmod: record.lastmod });
          await writer.write(path, rendered);
          recorder.written();
        }
        const written = await writer.drain();
        recorder.pagesDone();
        return written;
      },
      (b) => `${records.length} pages, ${(b / 1024 / 1024).toFixed(1)} MiB`,
    );

    const outputPages = records.map((r) => ({
      path: r.job.path,
      routeId: r.job.route.id,
      params: r.job.params,
      // Parsed on demand: outputs read only the pages they need, and nothing keeps every page's data alive.
      get data(): unknown {
        return JSON.parse(r.json);
      },
    }));
    const outputs = await timed(logger, 'outputs', () => writeOutputs(siteModules.outputs, { pages: outputPages, site, baseUrl, buildTime: ctx.prerenderedAt }, staging), (t) => `${t.files} files`);
    await cp(join(config.root, 'site/public'), staging, { recursive: true });
    for (const page of renderRedirectPages(siteModules.routeRules, baseUrl)) await writeSiteFile(staging, page.file, page.content);
    await writeSiteFile(staging, '404.html', renderErrorPage(ctx, { status: 404, message: 'Page not found', fatal: false }).html);
    sitemap.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    await writeSiteFile(staging, 'sitemap.xml', renderSitemap(sitemap, baseUrl));
    await writeSiteFile(staging, 'robots.txt', renderRobots(baseUrl));

    const chunks = Object.fromEntries(siteModules.routes.map((r) => [r.id, assets.pageChunks[r.page] ?? []]));
    const meta: BuildMeta = { id: buildId, timestamp, matcher: siteModules.routeRules, prerendered: records.map((r) => r.job.path), chunks };
    await writeSiteFile(staging, metaFileFor(buildId), JSON.stringify(meta));
    // latest.json is the commit point for clients: written after everything it points to exists.
    const latest: LatestBuild = { id: buildId, timestamp };
    await writeSiteFile(staging, LATEST_FILE, JSON.stringify(latest));
    await recorder.checkOutput(staging, { baseUrl, routeRules: siteModules.routeRules, outputs, pageBytes: bytes, files: mediaUrls });

    await commitStagingDir(staging, config.outDir);
    const result: Omit<BuildResult, 'report'> = { outDir: config.outDir, buildId, pages: records.length, bytes, media: mediaUrls.size, requests: client.requestCount(), durationMs: performance.now() - started };
    logger.info('build', `wrote ${result.pages} pages to ${config.outDir} in ${(result.durationMs / 1000).toFixed(1)} s (build ${buildId})`);
    return { ...result, report: await recorder.succeeded(buildId) };
  } catch (error) {
    await discardStagingDir(staging);
    await recorder.failed(error, buildIdSoFar);
    throw error;
  } finally {
    await backend?.close();
  }
}

// --- internal ---

async function loadSiteData(client: GraphQLClientHandle, query: string): Promise<SiteData> {
  try {
    return sanitizeData(await client.request<SiteData>(query));
  } catch (cause) {
    if (isGraphQLRequestError(cause) && (cause.kind === 'network' || cause.kind === 'timeout')) {
      throw createBuildError(BuildErrors.EndpointUnreachable, [client.endpoint, cause.reason], { cause });
    }
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

async function writeOutputs(outputs: readonly OutputDefinition[], ctx: OutputContext, siteDir: string): Promise<OutputTally> {
  const tally = { files: 0, bytes: 0 };
  for (const output of outputs) {
    for (const { file, content } of await output(ctx)) {
      await writeSiteFile(siteDir, file, content);
      tally.files++;
      tally.bytes += Buffer.byteLength(content);
    }
  }
  return tally;
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
