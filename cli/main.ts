import { Command, CommanderError, Help, Option } from 'commander';
import { build } from './build/build.ts';
import { checkInteger, checkUrl, DEFAULTS, resolveConfig, type UserConfig } from './config/config.ts';
import { startEmbeddedBackend } from './content/embedded-backend.ts';
import { BuildErrors, createBuildError, isBuildError, portInUse } from './errors/errors.ts';
import { describeCause, formatError } from './errors/format-error.ts';
import { redactUrlsIn } from '../runtime/shared/redact-url.ts';
import { createLogger, type LogLevel } from './terminal/logger.ts';
import { createBuildProgress } from './terminal/progress.ts';
import { progressModeFor, startProgressDisplay } from './terminal/progress-display.ts';
import { isSiteOutput, recoverUnlessBuilding } from './output/output.ts';
import { startStaticServer } from './serve/static-server.ts';
import { readSitePolicy } from './render/csp.ts';
import { join, resolve } from 'node:path';
import packageJson from '../package.json' with { type: 'json' };

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

/** Commander's values minus those it filled from an option's default, so site.config.ts and the environment can set them. */
function explicitFlags<T extends object>(flags: T, command: Command): Partial<T> {
  return Object.fromEntries(Object.entries(flags).filter(([key]) => command.getOptionValueSource(key) !== 'default')) as Partial<T>;
}

/** Every option's help names its default: a switch without one is off unless given. */
function optionDescription(this: Help, option: Option): string {
  const text = Help.prototype.optionDescription.call(this, option);
  const isSwitch = !option.required && !option.optional && !option.negate && option.long !== '--help' && option.long !== '--version';
  return isSwitch && option.defaultValue === undefined && !/default/i.test(text) ? `${text} (default: off)` : text;
}

const PRECEDENCE = '\nFlags override the environment variables named above, which override `build` in site/site.config.ts, which overrides the defaults shown.';

// `site --help | head` closes the pipe before the text ends: that is no failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

const program = new Command()
  .name('site')
  .description('Builds the institute website from a GraphQL content backend, previews it, and serves the sample backend.')
  .version(packageJson.version, '-V, --version', 'print the version and exit')
  .configureHelp({ optionDescription })
  .configureOutput({
    // Usage errors read like every other error: a code, what is wrong, and what to do.
    outputError: (message, write) => write(formatError(createBuildError(BuildErrors.UsageError, [message.trim()])) + '\n'),
  })
  .exitOverride();

program
  .command('build')
  .description('Query the content backend, render every page and write the static site.')
  .option('--endpoint <url>', 'GraphQL endpoint (env GRAPHQL_ENDPOINT); default: the embedded sample backend')
  .option('--public-endpoint <url>', 'GraphQL endpoint browsers call for editor preview and live data (env PUBLIC_GRAPHQL_ENDPOINT); default: --endpoint, none with the embedded backend')
  .option('--out <dir>', 'output folder', DEFAULTS.outDir)
  .option('--base-url <url>', "absolute URL the site is published at (env SITE_URL); default: the backend's site.url")
  .option('--concurrency <n>', 'GraphQL requests in flight at once', String(DEFAULTS.concurrency))
  .option('--timeout <ms>', 'milliseconds before one GraphQL request is abandoned', String(DEFAULTS.timeoutMs))
  .option('--retries <n>', 'extra attempts for transient GraphQL failures', String(DEFAULTS.retries))
  .option('--retry-delay <ms>', "milliseconds before the first retry, doubling per attempt (a server's Retry-After wins)", String(DEFAULTS.retryDelayMs))
  .option('--allow-shrink', 'accept a build with more than 20% fewer pages than the previous one in the output folder')
  .option('--build-check-interval <ms>', "milliseconds between the browser's checks for a newer build", String(DEFAULTS.buildCheckInterval))
  .option('--cache-dir <dir>', 'build cache folder (the client bundle, reused while the code is unchanged); default: .site-cache in the project')
  .option('--strict', 'content-check warnings (broken links and anchors, missing alt text, duplicate titles, payloads over budget) fail the build')
  .option('--payload-budget <bytes>', 'largest _payload.json before a page gets a warning', String(DEFAULTS.payloadBudget))
  .option('--media-max-bytes <bytes>', 'largest media file the build downloads; a larger one fails the build', String(DEFAULTS.mediaMaxBytes))
  .option('--report <file>', 'write the JSON build report here; default: build-report.json beside the output folder')
  .option('--no-report', 'write no build report (default: a report is written)')
  .option('--render-threads <n>', 'threads that render pages beside the main thread; 0: the main thread only (default: the CPU count less 1, at most 4; one on 2 CPUs)', String(DEFAULTS.renderThreads))
  .option('--no-csp', 'write pages without the Content-Security-Policy meta tag (default: every page carries a strict policy)')
  .option('--drafts', "publish drafts too: with an editor's GRAPHQL_TOKEN the backend returns them (default: the build asks for published content and leaves any draft out)")
  .option('--full', 'render every page, even when the previous build in the output folder could be updated in place (default: only pages whose inputs changed, when code and options are unchanged)')
  .option('--quiet', 'print warnings and errors only')
  .option('--verbose', 'print debug lines and stack traces')
  .addHelpText('after', PRECEDENCE)
  .action(async (allFlags: { endpoint?: string; publicEndpoint?: string; out: string; baseUrl?: string; concurrency: string; timeout: string; retries: string; retryDelay: string; allowShrink?: boolean; buildCheckInterval: string; cacheDir?: string; strict?: boolean; payloadBudget: string; mediaMaxBytes: string; report?: string | false; renderThreads: string; full?: boolean; drafts?: boolean; csp?: boolean } & CommonFlags, command: Command) => {
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
      report: flags.report,
      renderThreads: flags.renderThreads,
      full: flags.full,
      drafts: flags.drafts,
      csp: flags.csp,
    };
    const config = resolveConfig(user);
    const progress = createBuildProgress();
    const display = startProgressDisplay(progress, progressModeFor(config.logLevel, Boolean(process.stderr.isTTY), process.env));
    try {
      await build(config, { logger: createLogger(config.logLevel, display.streams), progress });
    } finally {
      display.stop();
    }
  });

program
  .command('preview')
  .description('Serve a built site locally the way object storage would.')
  .option('--out <dir>', 'folder holding the built site', DEFAULTS.outDir)
  .option('--port <n>', 'port to listen on (0 for any free port)', '4173')
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .action(async (flags: { out: string; port: string; host: string }) => {
    const root = resolve(flags.out);
    // A build killed in the middle of its swap: finish it first, unless a live build holds the folder.
    const recovered = await recoverUnlessBuilding(root);
    if (recovered) console.warn(`[preview] ${recovered}`);
    if (!(await isSiteOutput(root))) throw createBuildError(BuildErrors.OutputMissing, [root]);
    const port = checkInteger('--port', flags.port, 0, 65535);
    // The same policy as the pages' meta tag, as a header too, as a CDN in front of the bucket would send it.
    const policy = await readSitePolicy(root);
    const server = await startStaticServer({ root, port, host: flags.host, headers: policy ? { 'content-security-policy': policy } : {} }).catch(portInUse(flags.host, port));
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
  .option('--endpoint-url <url>', 'S3-compatible endpoint (env AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL); default: AWS S3. Credentials and region come from the AWS environment variables')
  .option('--keep-builds <n>', 'builds whose files stay for open tabs, the live one included', '3')
  .option('--max-deletes <n>', 'at most this many deletions per run (0: none)', '256')
  .option('--concurrency <n>', 'requests in flight at once', '8')
  .option('--dry-run', 'list every action and change nothing')
  .option('--allow-foreign-objects', 'publish into a bucket or prefix that holds objects no published build lists (publish never deletes them or writes over them); default: refuse')
  .option('--rollback <buildId>', 'point latest.json back to an earlier build still in the bucket (restores its pages from --out); default: none, the build in --out is published')
  .option('--quiet', 'print warnings and errors only')
  .option('--verbose', 'print a line per file, debug lines and stack traces')
  .action(async (flags: { out: string; bucket?: string; prefix?: string; endpointUrl?: string; keepBuilds: string; maxDeletes: string; concurrency: string; dryRun?: boolean; allowForeignObjects?: boolean; rollback?: string } & CommonFlags) => {
    // Loaded on demand so other commands never pay for the AWS SDK.
    const { publish, resolvePublishConfig, rollback } = await import('./publish/index.ts');
    const config = resolvePublishConfig({ ...flags, outDir: flags.out, logLevel: logLevelOf(flags) });
    const deps = { logger: createLogger(config.logLevel) };
    await (config.rollback === null ? publish(config, deps) : rollback(config, deps));
  });

program
  .command('dev')
  .description('Build and serve the site, rebuild when site/, runtime/, templates/ or the content change, and reload open pages.')
  .option('--endpoint <url>', 'GraphQL endpoint (env GRAPHQL_ENDPOINT); default: the embedded sample backend, restarted when backend/ or the file in CONTENT_OVERRIDES_FILE changes')
  .option('--out <dir>', 'folder for the dev build; default: dev-site in the cache folder (never the production output)')
  .option('--cache-dir <dir>', 'build cache folder; default: .site-cache in the project')
  .option('--port <n>', 'port to listen on (0 for any free port)', '3000')
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .option('--quiet', 'print warnings and errors only')
  .option('--verbose', 'print debug lines and stack traces')
  .addHelpText('after', PRECEDENCE)
  .action(async (allFlags: { endpoint?: string; out?: string; cacheDir?: string; port: string; host: string } & CommonFlags, command: Command) => {
    const flags = explicitFlags(allFlags, command);
    // Other build options (base URL, concurrency, …) reach each build through the environment and site.config.ts.
    const config = resolveConfig({ endpoint: flags.endpoint, cacheDir: flags.cacheDir, logLevel: logLevelOf(allFlags) });
    const logger = createLogger(config.logLevel);
    const { startDev } = await import('./dev/dev.ts');
    const session = await startDev({
      root: config.root,
      endpoint: config.endpoint,
      outDir: flags.out ? resolve(flags.out) : join(config.cacheDir, 'dev-site'),
      cacheDir: config.cacheDir,
      port: checkInteger('--port', allFlags.port, 0, 65535),
      host: allFlags.host,
      buildFlags: [allFlags.quiet ? '--quiet' : '', allFlags.verbose ? '--verbose' : ''].filter(Boolean),
      overridesFile: process.env.CONTENT_OVERRIDES_FILE || null,
      logger,
    });
    await waitForSignal();
    await session.close();
  });

const content = program.command('content').description('The embedded sample content backend.');
content
  .command('serve')
  .description('Run the embedded GraphQL content backend with its sample content.')
  .option('--port <n>', 'port to listen on (0 for any free port)', '4000')
  .option('--host <host>', 'address to listen on; one other than loopback needs an editor account of your own or --allow-remote', '127.0.0.1')
  .option('--allow-remote', 'listen on an address other machines can reach although the sample editor account is in force (default: refuse)')
  .option('--allow-origin <origin...>', "origins besides this machine's and the content's site URL whose pages may call the backend (default: none)")
  .addOption(new Option('--scale <n>', 'serve a synthetic site of about N pages instead of the sample content; default: the sample content'))
  .action(async (flags: { port: string; host: string; allowRemote?: boolean; allowOrigin?: string[]; scale?: string }) => {
    const port = checkInteger('--port', flags.port, 0, 65535);
    const backend = await startEmbeddedBackend({
      port,
      host: flags.host,
      allowRemote: flags.allowRemote,
      allowOrigins: (flags.allowOrigin ?? []).map((origin) => new URL(checkUrl('--allow-origin', origin)).origin),
      scale: flags.scale === undefined ? undefined : checkInteger('--scale', flags.scale, 1, 1_000_000),
    })
      .catch(portInUse(flags.host, port))
      .catch((cause: unknown) => {
        throw isBuildError(cause) ? cause : createBuildError(BuildErrors.BackendFailed, ['could not be started', describeCause(cause)], { cause });
      });
    console.log(`Content backend at ${backend.url} (Ctrl-C to stop)`);
    await waitForSignal();
    await backend.close();
  });

program.addHelpText('after', () => `${everyOption(program)}\n${PRECEDENCE}`);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander already printed the message (through outputError) or the help.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    const verbose = process.argv.includes('--verbose');
    const shown = isBuildError(error) ? error : createBuildError(BuildErrors.UnexpectedError, [describeCause(error)], { cause: error });
    console.error(formatError(shown, { verbose }));
    if (verbose && !isBuildError(error) && error instanceof Error && error.stack) console.error(redactUrlsIn(error.stack));
    process.exitCode = shown.exitCode;
  }
}

/** The end of `site --help`: every option of every command, each with its default, as in the command's own help. */
function everyOption(root: Command): string {
  const helper = root.createHelp();
  helper.helpWidth = process.stdout.columns || 100;
  const out: string[] = [];
  const visit = (command: Command, path: string): void => {
    for (const sub of command.commands) {
      const name = `${path} ${sub.name()}`;
      const options = helper.visibleOptions(sub).filter((o) => o.long !== '--help');
      if (options.length > 0) {
        const width = Math.max(...options.map((o) => helper.optionTerm(o).length));
        out.push('', `Options of ${name}:`, ...options.map((o) => helper.formatItem(helper.optionTerm(o), width, helper.optionDescription(o), helper)));
      }
      visit(sub, name);
    }
  };
  visit(root, root.name());
  return out.join('\n');
}

function waitForSignal(): Promise<void> {
  return new Promise((ok) => {
    process.once('SIGINT', () => ok());
    process.once('SIGTERM', () => ok());
  });
}
