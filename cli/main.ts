import { Command, CommanderError, Option } from 'commander';
import { build } from './build.ts';
import { checkInteger, DEFAULTS, resolveConfig, type UserConfig } from './config.ts';
import { startEmbeddedBackend } from './embedded-backend.ts';
import { BuildErrors, createBuildError, isBuildError } from './errors.ts';
import { formatError } from './format-error.ts';
import { createLogger, type LogLevel } from './logger.ts';
import { isSiteOutput } from './output.ts';
import { startStaticServer } from './static-server.ts';
import { resolve } from 'node:path';

/**
 * The `site` command: a thin shell over the programmatic API. Flags become a UserConfig; errors are
 * caught here only, printed with their code and fix, and set the exit code (2 usage, 1 failure).
 */

interface CommonFlags {
  quiet?: boolean;
  verbose?: boolean;
}

function logLevelOf(flags: CommonFlags): LogLevel {
  return flags.quiet ? 'warn' : flags.verbose ? 'debug' : 'info';
}

const program = new Command()
  .name('site')
  .description('Builds the institute website from a GraphQL content backend, previews it, and serves the sample backend.')
  .showHelpAfterError('(run with --help for every option)')
  .exitOverride();

program
  .command('build')
  .description('Query the content backend, render every page and write the static site.')
  .option('--endpoint <url>', 'GraphQL endpoint (env GRAPHQL_ENDPOINT); default: the embedded sample backend')
  .option('--out <dir>', 'output folder', DEFAULTS.outDir)
  .option('--base-url <url>', "absolute URL the site is published at (env SITE_URL); default: the backend's site.url")
  .option('--concurrency <n>', 'GraphQL requests in flight at once', String(DEFAULTS.concurrency))
  .option('--timeout <ms>', 'milliseconds before one GraphQL request is abandoned', String(DEFAULTS.timeoutMs))
  .option('--retries <n>', 'extra attempts for transient GraphQL failures', String(DEFAULTS.retries))
  .option('--build-check-interval <ms>', "milliseconds between the browser's checks for a newer build", String(DEFAULTS.buildCheckInterval))
  .option('--quiet', 'print warnings and errors only')
  .option('--verbose', 'print debug lines and stack traces')
  .action(async (flags: { endpoint?: string; out: string; baseUrl?: string; concurrency: string; timeout: string; retries: string; buildCheckInterval: string } & CommonFlags) => {
    const user: UserConfig = {
      endpoint: flags.endpoint,
      outDir: flags.out,
      baseUrl: flags.baseUrl,
      concurrency: flags.concurrency,
      timeoutMs: flags.timeout,
      retries: flags.retries,
      buildCheckInterval: flags.buildCheckInterval,
      logLevel: logLevelOf(flags),
    };
    const config = resolveConfig(user);
    await build(config, { logger: createLogger(config.logLevel) });
  });

program
  .command('preview')
  .description('Serve a built site locally the way object storage would.')
  .option('--out <dir>', 'folder holding the built site', DEFAULTS.outDir)
  .option('--port <n>', 'port to listen on (0 for any free port)', '4173')
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .action(async (flags: { out: string; port: string; host: string }) => {
    const root = resolve(flags.out);
    if (!(await isSiteOutput(root))) throw createBuildError(BuildErrors.OutputMissing, [root]);
    const server = await startStaticServer({ root, port: checkInteger('--port', flags.port, 0, 65535), host: flags.host });
    console.log(`Previewing ${root} at ${server.url}/ (Ctrl-C to stop)`);
    await waitForSignal();
    await server.close();
  });

program
  .command('publish')
  .description('Upload a built site to S3-compatible object storage, safely for open tabs, or roll back to an earlier build.')
  .option('--out <dir>', 'folder holding the built site', DEFAULTS.outDir)
  .option('--bucket <name>', 'bucket to publish to (required)')
  .option('--prefix <prefix>', 'key prefix inside the bucket (default: the bucket root)')
  .option('--endpoint-url <url>', 'S3-compatible endpoint (env AWS_ENDPOINT_URL); default: AWS S3. Credentials and region come from the AWS environment variables')
  .option('--keep-builds <n>', 'builds whose files stay for open tabs, the live one included', '3')
  .option('--max-deletes <n>', 'at most this many deletions per run (0: none)', '256')
  .option('--concurrency <n>', 'requests in flight at once', '8')
  .option('--dry-run', 'list every action and change nothing')
  .option('--rollback <buildId>', 'point latest.json back to an earlier build still in the bucket (restores its pages from --out)')
  .option('--quiet', 'print warnings and errors only')
  .option('--verbose', 'print a line per file, debug lines and stack traces')
  .action(async (flags: { out: string; bucket?: string; prefix?: string; endpointUrl?: string; keepBuilds: string; maxDeletes: string; concurrency: string; dryRun?: boolean; rollback?: string } & CommonFlags) => {
    // Loaded on demand so other commands never pay for the AWS SDK.
    const { publish, resolvePublishConfig, rollback } = await import('./publish/index.ts');
    const config = resolvePublishConfig({ ...flags, outDir: flags.out, logLevel: logLevelOf(flags) });
    const deps = { logger: createLogger(config.logLevel) };
    await (config.rollback === null ? publish(config, deps) : rollback(config, deps));
  });

const content = program.command('content').description('The embedded sample content backend.');
content
  .command('serve')
  .description('Run the embedded GraphQL content backend with its sample content.')
  .option('--port <n>', 'port to listen on (0 for any free port)', '4000')
  .addOption(new Option('--scale <n>', 'serve a synthetic site of about N pages instead of the sample content'))
  .action(async (flags: { port: string; scale?: string }) => {
    const backend = await startEmbeddedBackend({
      port: checkInteger('--port', flags.port, 0, 65535),
      scale: flags.scale === undefined ? undefined : checkInteger('--scale', flags.scale, 1, 1_000_000),
    });
    console.log(`Content backend at ${backend.url} (Ctrl-C to stop)`);
    await waitForSignal();
    await backend.close();
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander already printed the message and the help hint.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    console.error(formatError(error, { verbose: process.argv.includes('--verbose') }));
    process.exitCode = isBuildError(error) ? error.exitCode : 1;
  }
}

function waitForSignal(): Promise<void> {
  return new Promise((ok) => {
    process.once('SIGINT', () => ok());
    process.once('SIGTERM', () => ok());
  });
}
