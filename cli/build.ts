import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import type { BuildMeta, LatestBuild, SiteData } from '../runtime/shared/contract.ts';
import { createGraphQLClient, isGraphQLRequestError, type GraphQLClientHandle } from '../runtime/shared/graphql.ts';
import { LATEST_FILE, metaFileFor } from '../runtime/shared/paths.ts';
import type { OutputContext, OutputDefinition } from '../runtime/shared/route-data.ts';
import { serializeJson } from '../runtime/shared/serialize.ts';
import { siteInfoOf } from '../runtime/site-context.ts';
import { createBuildId } from './build-id.ts';
import { bundleClient } from './bundle.ts';
import type { ResolvedConfig } from './config.ts';
import { crawl } from './crawl.ts';
import { startEmbeddedBackend, type Backend } from './embedded-backend.ts';
import { BuildErrors, createBuildError, type PageFailure } from './errors.ts';
import { describeCause } from './format-error.ts';
import type { Logger } from './logger.ts';
import { collectMediaUrls, copyMedia } from './media.ts';
import { commitStagingDir, createStagingDir, discardStagingDir } from './output.ts';
import { queryPages } from './query.ts';
import { renderRedirectPages } from './redirects.ts';
import { renderErrorPage, renderPage, type RenderContext } from './render.tsx';
import { sanitizeData } from './sanitize.ts';
import { loadSiteModules } from './site-modules.ts';
import { renderRobots, renderSitemap, type SitemapEntry } from './sitemap.ts';
import { loadShell } from './template.ts';
import { writePage, writeSiteFile } from './write.ts';

export interface BuildDeps {
  logger: Logger;
  /** @default () => new Date() */
  now?: () => Date;
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
}

/**
 * Builds the whole site into `config.outDir`: bundle, crawl, query, render, write; then the build
 * meta and, last, latest.json. Everything goes to a staging folder that replaces the output only
 * when every page succeeded, so a failed build leaves the previous output as it was.
 */
export async function build(config: ResolvedConfig, { logger, now = () => new Date() }: BuildDeps): Promise<BuildResult> {
  const started = performance.now();
  const staging = await createStagingDir(config.outDir);
  let backend: Backend | null = null;
  try {
    if (!config.endpoint) {
      backend = await startEmbeddedBackend();
      logger.info('backend', `embedded sample backend at ${backend.url}`);
    }
    const endpoint = config.endpoint ?? backend!.url;
    const client = createGraphQLClient({ endpoint, getToken: () => config.token, timeoutMs: config.timeoutMs, retries: config.retries });
    const siteModules = await loadSiteModules();

    // The site query goes first: it is the cheapest way to learn that the endpoint is unreachable.
    const site = await loadSiteData(client, siteModules.siteData.query);
    // Bundling runs beside crawling and querying; settle both before anything can discard the staging folder.
    const [assets, shell, { jobs, crawlFailures, pages, queryFailures }] = await settleAll([
      timed(logger, 'bundle', () => bundleClient(config.root, staging), (a) => `${Object.keys(a.pageChunks).length} route chunks`),
      loadShell(config.root),
      (async () => {
        const crawled = await timed(logger, 'crawl', () => crawl(siteModules.routes, siteModules.routeData, client), (r) => `${r.jobs.length} pages from ${siteModules.routes.length} routes`);
        const queried = await timed(logger, 'query', () => queryPages(crawled.jobs, siteModules.routeData, client, config.concurrency), (r) => `${r.pages.length} pages, ${client.requestCount()} requests`);
        return { jobs: crawled.jobs, crawlFailures: crawled.failures, pages: queried.pages, queryFailures: queried.failures };
      })(),
    ] as const);
    failIfAny([...crawlFailures, ...queryFailures], jobs.length);

    const cleanPages = pages.map((p) => ({ ...p, data: sanitizeData(p.data) }));
    const info = siteInfoOf(site);
    const baseUrl = config.baseUrl ?? (info.url || 'http://localhost');
    // Every input that changes the output is part of the id: code, shell, options, rules and content.
    const buildId = createBuildId([
      assets.hash,
      shell.parts.join('\0'),
      JSON.stringify({ baseUrl, buildCheckInterval: config.buildCheckInterval, routeRules: siteModules.routeRules }),
      serializeJson(site),
      ...cleanPages.flatMap((p) => [p.job.path, serializeJson(p.data)]),
    ]);
    const timestamp = config.sourceDateEpoch !== null ? config.sourceDateEpoch * 1000 : now().getTime();

    const mediaUrls = collectMediaUrls([site, ...cleanPages.map((p) => p.data)]);
    const mediaFailures = await timed(logger, 'media', () => copyMedia(mediaUrls, new URL(endpoint).origin, staging, config.concurrency), () => `${mediaUrls.size} files`);
    failIfAny(mediaFailures, mediaUrls.size);

    const ctx: RenderContext = {
      buildId,
      prerenderedAt: new Date(timestamp).toISOString(),
      site,
      siteName: info.name,
      language: info.language,
      baseUrl,
      routes: siteModules.routes,
      layouts: siteModules.layouts,
      modules: siteModules.modules,
      assets,
      shell,
      client: { buildCheckInterval: config.buildCheckInterval },
    };
    const sitemap: SitemapEntry[] = [];
    const writeLimit = pLimit(16);
    const bytes = await timed(
      logger,
      'write',
      async () => {
        const sizes = await Promise.all(
          cleanPages.map(({ job, data }) =>
            writeLimit(async () => {
              const rendered = renderPage(ctx, job.route, job.path, job.params, data);
              if (!rendered.head.noindex) sitemap.push({ path: job.path, lastmod: siteModules.routeData[job.route.id]?.lastmod?.(data as never) });
              return writePage(staging, job.path, rendered);
            }),
          ),
        );
        return sizes.reduce((a, b) => a + b, 0);
      },
      (b) => `${cleanPages.length} pages, ${(b / 1024 / 1024).toFixed(1)} MiB`,
    );

    await timed(logger, 'outputs', () => writeOutputs(siteModules.outputs, { pages: cleanPages.map(({ job, data }) => ({ path: job.path, routeId: job.route.id, params: job.params, data })), site, baseUrl, buildTime: ctx.prerenderedAt }, staging), (n) => `${n} files`);
    await cp(join(config.root, 'site/public'), staging, { recursive: true });
    for (const page of renderRedirectPages(siteModules.routeRules, baseUrl)) await writeSiteFile(staging, page.file, page.content);
    await writeSiteFile(staging, '404.html', renderErrorPage(ctx, { status: 404, message: 'Page not found', fatal: false }).html);
    sitemap.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    await writeSiteFile(staging, 'sitemap.xml', renderSitemap(sitemap, baseUrl));
    await writeSiteFile(staging, 'robots.txt', renderRobots(baseUrl));

    const chunks = Object.fromEntries(siteModules.routes.map((r) => [r.id, assets.pageChunks[r.page] ?? []]));
    const meta: BuildMeta = { id: buildId, timestamp, matcher: siteModules.routeRules, prerendered: cleanPages.map((p) => p.job.path), chunks };
    await writeSiteFile(staging, metaFileFor(buildId), JSON.stringify(meta));
    // latest.json is the commit point for clients: written after everything it points to exists.
    const latest: LatestBuild = { id: buildId, timestamp };
    await writeSiteFile(staging, LATEST_FILE, JSON.stringify(latest));

    await commitStagingDir(staging, config.outDir);
    const result: BuildResult = { outDir: config.outDir, buildId, pages: cleanPages.length, bytes, media: mediaUrls.size, requests: client.requestCount(), durationMs: performance.now() - started };
    logger.info('build', `wrote ${result.pages} pages to ${config.outDir} in ${(result.durationMs / 1000).toFixed(1)} s (build ${buildId})`);
    return result;
  } catch (error) {
    await discardStagingDir(staging);
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

async function writeOutputs(outputs: readonly OutputDefinition[], ctx: OutputContext, siteDir: string): Promise<number> {
  let count = 0;
  for (const output of outputs) {
    for (const { file, content } of await output(ctx)) {
      await writeSiteFile(siteDir, file, content);
      count++;
    }
  }
  return count;
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
