import type { Command } from 'commander';
import { join, resolve } from 'node:path';
import { checkInteger, resolveConfig } from '../config/config.ts';
import { contentOverridesFile } from '../config/environment.ts';
import { createLogger } from '../terminal/logger.ts';
import { explicitFlags, logLevelOf, PRECEDENCE, waitForSignal, type CommonFlags } from './shared.ts';

/** `site dev`: builds, serves, rebuilds on change and reloads open pages. */
export function addDevCommand(program: Command): void {
  program
    .command('dev')
    .description('Build and serve the site, rebuild when site/, runtime/, templates/ or the content change, and reload open pages.')
    .option(
      '--endpoint <url>',
      'GraphQL endpoint (env GRAPHQL_ENDPOINT); default: the embedded sample backend, restarted when backend/ or the file in CONTENT_OVERRIDES_FILE changes',
    )
    .option('--out <dir>', 'folder for the dev build; default: dev-site in the cache folder (never the production output)')
    .option('--cache-dir <dir>', 'build cache folder; default: .site-cache in the project')
    .option('--port <n>', 'port to listen on (0 for any free port)', '3000')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option(
      '--search',
      "build the site search's index with every change (Pagefind indexes every page again: about 13 s at 10,000 pages); default: no index, and /search says search is not available",
    )
    .option(
      '--no-open-pages-first',
      'after an edit in the backend, wait for the update in place of the whole site; default: the pages open in a browser are rendered and reloaded first',
    )
    .option('--quiet', 'print warnings and errors only')
    .option('--verbose', 'print debug lines and stack traces')
    .addHelpText('after', PRECEDENCE)
    .action(
      async (
        allFlags: {
          endpoint?: string;
          out?: string;
          cacheDir?: string;
          port: string;
          host: string;
          search?: boolean;
          openPagesFirst: boolean;
        } & CommonFlags,
        command: Command,
      ) => {
        const flags = explicitFlags(allFlags, command);
        // Other build options (base URL, concurrency, …) reach each build through the environment and site.config.ts.
        const config = resolveConfig({ endpoint: flags.endpoint, cacheDir: flags.cacheDir, logLevel: logLevelOf(allFlags) });
        const logger = createLogger(config.logLevel);
        const { startDev } = await import('../serve/dev.ts');
        const session = await startDev({
          root: config.root,
          endpoint: config.endpoint,
          outDir: flags.out ? resolve(flags.out) : join(config.cacheDir, 'dev-site'),
          cacheDir: config.cacheDir,
          port: checkInteger('--port', allFlags.port, 0, 65535),
          host: allFlags.host,
          // Without --search, an edit shows in the open page without waiting for Pagefind to index every page again.
          buildFlags: [allFlags.quiet ? '--quiet' : '', allFlags.verbose ? '--verbose' : '', allFlags.search ? '' : '--no-search'].filter(
            Boolean,
          ),
          overridesFile: contentOverridesFile(),
          openPagesFirst: allFlags.openPagesFirst,
          logger,
        });
        await waitForSignal();
        await session.close();
      },
    );

  // The process `site dev` keeps for rendering the open pages first (serve/open-pages.ts): not for people to run.
  program
    .command('dev-pages', { hidden: true })
    .description('Render the pages open in site dev on request, as the next build would (started by site dev).')
    .option('--endpoint <url>')
    .option('--out <dir>')
    .option('--cache-dir <dir>')
    .option('--no-search')
    .option('--quiet')
    .option('--verbose')
    .action(async (allFlags: { endpoint?: string; out?: string; cacheDir?: string } & CommonFlags, command: Command) => {
      const flags = explicitFlags(allFlags, command);
      const config = resolveConfig({
        endpoint: flags.endpoint,
        outDir: flags.out,
        cacheDir: flags.cacheDir,
        logLevel: logLevelOf(allFlags),
      });
      const { runOpenPages } = await import('../serve/open-pages.ts');
      await runOpenPages(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel));
    });
}
