import type { Command } from 'commander';
import { checkInteger, DEFAULTS, resolveConfig } from '../config/config.ts';
import { liveWebhookSecret } from '../config/environment.ts';
import { resolvePublishConfig } from '../config/publish.ts';
import { BuildErrors, createBuildError } from '../errors/errors.ts';
import { createLogger } from '../terminal/logger.ts';
import { explicitFlags, logLevelOf, PRECEDENCE, type CommonFlags } from './shared.ts';

/** `site live`: keeps the output folder, and the bucket when one is given, up to date with the backend. */
export function addLiveCommand(program: Command): void {
  program
    .command('live')
    .description(
      "Keep the site live: follow the backend's change feed and a CMS's signed webhook, update the output in place and publish what changed (docs/live.md).",
    )
    .option('--endpoint <url>', 'GraphQL endpoint of a backend that keeps its edits (env GRAPHQL_ENDPOINT); required')
    .option('--out <dir>', 'output folder kept up to date', DEFAULTS.outDir)
    .option('--cache-dir <dir>', 'build cache folder; default: .site-cache in the project')
    .option('--no-search', 'write no site search index (default: the index is updated with every change that reaches a searched page)')
    .option('--allow-shrink', 'accept an update with more than 20% fewer pages than the previous build')
    .option('--bucket <name>', 'publish every update to this bucket (as site publish does); default: none, the output folder is the site')
    .option('--prefix <prefix>', 'key prefix inside the bucket (default: the bucket root)')
    .option('--endpoint-url <url>', 'S3-compatible endpoint (env AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL); default: AWS S3')
    .option('--keep-builds <n>', 'builds whose files stay in the bucket for open tabs, the live one included', '3')
    .option('--max-deletes <n>', 'at most this many deletions per publish (0: none)', '256')
    .option('--publish-concurrency <n>', 'requests in flight at once while publishing', '8')
    .option('--poll-interval <ms>', "milliseconds between questions to the backend's change feed (0: the webhook only)", '1000')
    .option('--port <n>', 'port of /health, /metrics and /webhook (0 for any free port)', '8787')
    .option('--host <host>', 'address to listen on (0.0.0.0 in a container)', '127.0.0.1')
    .option('--log-format <format>', 'text, or json: one JSON object a line for a log collector', 'text')
    .option('--quiet', 'print warnings and errors only')
    .option('--verbose', 'print debug lines and stack traces')
    .addHelpText(
      'after',
      `${PRECEDENCE}\nOther build options come from the environment and site/site.config.ts, as for site build. SITE_LIVE_SECRET (at least 32 characters) turns the webhook on.`,
    )
    .action(
      async (
        allFlags: {
          endpoint?: string;
          out: string;
          cacheDir?: string;
          search?: boolean;
          allowShrink?: boolean;
          bucket?: string;
          prefix?: string;
          endpointUrl?: string;
          keepBuilds: string;
          maxDeletes: string;
          publishConcurrency: string;
          pollInterval: string;
          port: string;
          host: string;
          logFormat: string;
        } & CommonFlags,
        command: Command,
      ) => {
        const flags = explicitFlags(allFlags, command);
        const logLevel = logLevelOf(allFlags);
        const config = resolveConfig({
          endpoint: flags.endpoint,
          outDir: allFlags.out,
          cacheDir: flags.cacheDir,
          search: flags.search,
          allowShrink: flags.allowShrink,
          // Each update is a build: its report would be written anew every time.
          report: false,
          logLevel,
        });
        const publish =
          allFlags.bucket === undefined
            ? null
            : resolvePublishConfig({
                outDir: allFlags.out,
                bucket: allFlags.bucket,
                prefix: allFlags.prefix,
                endpointUrl: allFlags.endpointUrl,
                keepBuilds: allFlags.keepBuilds,
                maxDeletes: allFlags.maxDeletes,
                concurrency: allFlags.publishConcurrency,
                logLevel,
              });
        const format = allFlags.logFormat;
        if (format !== 'text' && format !== 'json')
          throw createBuildError(BuildErrors.InvalidOption, ['--log-format', format, 'text or json']);
        const logger = createLogger(logLevel, undefined, { format });
        const { startLive } = await import('../serve/live/live.ts');
        // Ends the wait below: a signal, or the process stopping on its own.
        const stopped = Promise.withResolvers<void>();
        const session = await startLive({
          config,
          publish,
          host: allFlags.host,
          port: checkInteger('--port', allFlags.port, 0, 65535),
          pollIntervalMs: checkInteger('--poll-interval', allFlags.pollInterval, 0, 3_600_000),
          webhookSecret: liveWebhookSecret(),
          // The same options as this command's, for a build that renders every page in a process of its own.
          childBuild: [
            process.execPath,
            ...process.execArgv,
            process.argv[1]!,
            'build',
            '--out',
            config.outDir,
            '--cache-dir',
            config.cacheDir,
            '--no-report',
            '--quiet',
            ...(config.search ? [] : ['--no-search']),
            ...(config.allowShrink ? ['--allow-shrink'] : []),
          ],
          logger,
          // Ended on its own (a lost lease, new code on disk): a supervisor restarts a process that failed.
          onStop: () => {
            process.exitCode = 1;
            stopped.resolve();
          },
        });
        // SIGTERM (Kubernetes, systemd) or Ctrl-C: the running update finishes, then the process ends. A
        // second signal ends it at once: the folder and the bucket are safe at any point (staging, latest.json last).
        // A build running in a process of its own is ended as this one exits (live.ts buildInChild), so that it
        // does not keep the output's lock.
        const stop = (): void => {
          process.once('SIGTERM', () => process.exit(143));
          process.once('SIGINT', () => process.exit(130));
          stopped.resolve();
        };
        process.once('SIGTERM', stop);
        process.once('SIGINT', stop);
        await stopped.promise;
        await session.close();
      },
    );
}
