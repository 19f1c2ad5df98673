import type { Command } from 'commander';
import { fstatSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULTS, resolveConfig, type ResolvedConfig, type UserConfig } from '../config/config.ts';
import { exitWithStdin, terminalOf } from '../config/environment.ts';
import { createLogger } from '../terminal/logger.ts';
import { createBuildProgress } from '../terminal/progress.ts';
import { progressModeFor, startProgressDisplay } from '../terminal/progress-display.ts';
import { explicitFlags, logLevelOf, PRECEDENCE, type CommonFlags } from './shared.ts';

/** `site build`: flags become a UserConfig; the build runs with a progress display. */
export function addBuildCommand(program: Command): void {
  program
    .command('build')
    .description('Query the content backend, render every page and write the static site.')
    .option('--endpoint <url>', 'GraphQL endpoint (env GRAPHQL_ENDPOINT); default: the embedded sample backend')
    .option(
      '--public-endpoint <url>',
      'GraphQL endpoint browsers call for editor preview and live data (env PUBLIC_GRAPHQL_ENDPOINT); default: --endpoint, none with the embedded backend',
    )
    .option('--out <dir>', 'output folder', DEFAULTS.outDir)
    .option('--base-url <url>', "absolute URL the site is published at (env SITE_URL); default: the backend's site.url")
    .option('--concurrency <n>', 'GraphQL requests in flight at once', String(DEFAULTS.concurrency))
    .option('--timeout <ms>', 'milliseconds before one GraphQL request is abandoned', String(DEFAULTS.timeoutMs))
    .option('--retries <n>', 'extra attempts for transient GraphQL failures', String(DEFAULTS.retries))
    .option(
      '--retry-delay <ms>',
      "milliseconds before the first retry, doubling per attempt (a server's Retry-After wins)",
      String(DEFAULTS.retryDelayMs),
    )
    .option('--allow-shrink', 'accept a build with more than 20% fewer pages than the previous one in the output folder')
    .option(
      '--build-check-interval <ms>',
      "milliseconds between the browser's checks for a newer build",
      String(DEFAULTS.buildCheckInterval),
    )
    .option(
      '--cache-dir <dir>',
      'build cache folder (the client bundle, reused while the code is unchanged); default: .site-cache in the project',
    )
    .option(
      '--strict',
      'content-check warnings (broken links and anchors, missing alt text, duplicate titles, payloads over budget) fail the build',
    )
    .option('--payload-budget <bytes>', 'largest _payload.json before a page gets a warning', String(DEFAULTS.payloadBudget))
    .option(
      '--media-max-bytes <bytes>',
      'largest media file the build downloads; a larger one fails the build',
      String(DEFAULTS.mediaMaxBytes),
    )
    .option(
      '--image-formats <list>',
      "formats of the images' srcset, most preferred first: webp, or avif,webp (AVIF encodes about 5 times slower)",
      'webp',
    )
    .option('--image-max-pixels <n>', 'largest source image in pixels; a larger one fails the build (a decompression bomb)', '100000000')
    .option(
      '--image-service <url>',
      "imgproxy's URL: derivatives made by it instead of the build, signed with IMGPROXY_KEY and IMGPROXY_SALT (env IMGPROXY_URL); default: the build encodes them",
    )
    .option('--report <file>', 'write the JSON build report here; default: build-report.json beside the output folder')
    .option('--no-report', 'write no build report (default: a report is written)')
    .option(
      '--render-threads <n>',
      'threads that render pages beside the main thread, started at once; 0: the main thread only (default: the CPU count less 1, at most 4, one on 2 CPUs, started once 256 pages are to render)',
      String(DEFAULTS.renderThreads),
    )
    .option('--no-csp', 'write pages without the Content-Security-Policy meta tag (default: every page carries a strict policy)')
    .option(
      '--no-search',
      'write no site search index (the search page then says search is unavailable); default: the index goes to _search/',
    )
    .option(
      '--drafts',
      "publish drafts too: with an editor's GRAPHQL_TOKEN the backend returns them (default: the build asks for published content and leaves any draft out)",
    )
    .option(
      '--full',
      'render every page, even when the previous build in the output folder could be updated in place (default: only pages whose inputs changed, when code and options are unchanged)',
    )
    .option(
      '--shard <i/n>',
      'render only share i of n of the pages, for a build split over machines; needs SOURCE_DATE_EPOCH (env SITE_SHARD, or JOB_COMPLETION_INDEX with SITE_SHARD_COUNT); default: every page',
    )
    .option(
      '--merge <dirs...>',
      'join the output folders of every shard of one build into --out, latest.json last; default: none, the build renders its own pages',
    )
    .option('--quiet', 'print warnings and errors only')
    .option('--verbose', 'print debug lines and stack traces')
    .addHelpText('after', PRECEDENCE)
    .action(
      async (
        allFlags: {
          endpoint?: string;
          publicEndpoint?: string;
          out: string;
          baseUrl?: string;
          concurrency: string;
          timeout: string;
          retries: string;
          retryDelay: string;
          allowShrink?: boolean;
          buildCheckInterval: string;
          cacheDir?: string;
          strict?: boolean;
          payloadBudget: string;
          mediaMaxBytes: string;
          imageFormats: string;
          imageMaxPixels: string;
          imageService?: string;
          report?: string | false;
          renderThreads: string;
          full?: boolean;
          drafts?: boolean;
          csp?: boolean;
          search?: boolean;
          shard?: string;
          merge?: string[];
        } & CommonFlags,
        command: Command,
      ) => {
        const flags = explicitFlags(allFlags, command);
        const user: UserConfig = {
          endpoint: flags.endpoint,
          publicEndpoint: flags.publicEndpoint,
          outDir: flags.out,
          baseUrl: flags.baseUrl,
          concurrency: flags.concurrency,
          timeoutMs: flags.timeout,
          retries: flags.retries,
          retryDelayMs: flags.retryDelay,
          allowShrink: flags.allowShrink,
          buildCheckInterval: flags.buildCheckInterval,
          logLevel: logLevelOf(flags),
          cacheDir: flags.cacheDir,
          strict: flags.strict,
          payloadBudget: flags.payloadBudget,
          mediaMaxBytes: flags.mediaMaxBytes,
          imageFormats: flags.imageFormats,
          imageMaxPixels: flags.imageMaxPixels,
          imageService: flags.imageService,
          report: flags.report,
          renderThreads: flags.renderThreads,
          full: flags.full,
          drafts: flags.drafts,
          csp: flags.csp,
          search: flags.search,
          shard: flags.shard,
        };
        const config = resolveConfig(user);
        const stopWatching = exitWithStdin() ? endWithStdin() : () => {};
        try {
          await runBuild(config, flags.merge);
        } finally {
          stopWatching();
        }
      },
    );
}

/** The build (or the merge of shards' folders) with a progress display. */
async function runBuild(config: ResolvedConfig, merge: string[] | undefined): Promise<void> {
  const progress = createBuildProgress();
  const display = startProgressDisplay(progress, progressModeFor(config.logLevel, Boolean(process.stderr.isTTY), terminalOf()));
  try {
    const deps = { logger: createLogger(config.logLevel, display.streams), progress };
    if (merge) {
      const { mergeShards } = await import('../build/merge.ts');
      await mergeShards(
        config,
        merge.map((dir) => resolve(dir)),
        deps,
      );
    } else {
      const { build } = await import('../build/build.ts');
      await build(config, deps);
    }
  } finally {
    display.stop();
  }
}

/**
 * Ends the process when its standard input closes: the pipe of the `site live` that started this build
 * (SITE_EXIT_WITH_STDIN), closed by the system when that process ends, however it ends. Left running, the
 * build would hold the output's lock, and a new `site live` for the folder would be refused until it
 * ended. The folder is safe: the build writes a staging folder and swaps it in, steps that a later build
 * finishes or undoes (cli/output/swap.ts), and a lock whose process has gone is taken over. Returns what
 * stops the watch, so that a build that ended lets the process end.
 */
function endWithStdin(): () => void {
  // Only a pipe (or a socket) closes when the process at its other end ends: a terminal, /dev/null or a
  // file as input (the variable set by hand) would end the build at once, or swallow what is typed.
  let input: Stats;
  try {
    input = fstatSync(0);
  } catch {
    return () => {};
  }
  if (!input.isFIFO() && !input.isSocket()) return () => {};
  const stdin = process.stdin;
  const end = (): void => {
    process.stderr.write('[build] the process that started this build has ended: the build stops\n');
    // Exit hooks run: the output's lock is released (cli/output/lock.ts); the staging folder is left
    // for the next build, which removes it.
    process.exit(1);
  };
  // 'close' follows the pipe's end and any error; an error needs a listener of its own, or it is thrown.
  stdin.on('error', end);
  stdin.once('close', end);
  stdin.resume();
  return () => {
    stdin.off('error', end);
    stdin.off('close', end);
    stdin.pause();
    stdin.destroy();
  };
}
