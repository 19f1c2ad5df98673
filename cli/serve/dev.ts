import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readLatest } from '../output/output.ts';
import { startDevBackend, type DevBackend } from './dev-backend.ts';
import { startDevServer } from './dev-server.ts';
import { createFirstPages } from './first-pages.ts';
import { startOpenPages, type OpenPages } from './open-pages.ts';
import { displayPath, watchFiles } from './dev-watch.ts';
import { describeCause, formatError } from '../errors/format-error.ts';
import type { Logger } from '../terminal/logger.ts';
import { createLiveReload } from './live-reload.ts';
import { followContent } from './dev-content.ts';
import { loadChangeFeed } from '../config/site-modules.ts';
import { formatDuration, plural } from '../terminal/format.ts';

/** Options of `site dev`. */
export interface DevOptions {
  /** Repository root: site/, runtime/, templates/, backend/, bin/site.js. */
  root: string;
  /** The GraphQL endpoint to build from; null runs the embedded backend (and restarts it when its content changes). */
  endpoint: string | null;
  /** Where the dev build goes. */
  outDir: string;
  cacheDir: string;
  port: number;
  host: string;
  /** Flags every build gets besides endpoint, output and cache (--quiet, --verbose, --no-search). */
  buildFlags: readonly string[];
  /** CONTENT_OVERRIDES_FILE, watched beside backend/: a change restarts the embedded backend. */
  overridesFile: string | null;
  /** After an edit in the backend, render and reload the open pages before the update in place (open-page-renderer.ts). @default true */
  openPagesFirst?: boolean;
  logger: Logger;
}

/** A running `site dev`. */
export interface DevSession {
  url: string;
  close(): Promise<void>;
}

/**
 * How long an edit waits for its open pages to be rendered first before the update in place starts
 * anyway: a page takes tens of milliseconds; its route's list, at 10,000 pages, a few hundred.
 */
const FIRST_PAGES_TIMEOUT_MS = 3_000;

/** What a change needs: a new build, after restarting the embedded backend when its code or content changed. */
interface Rebuild {
  restartBackend: boolean;
  reason: string;
}

/**
 * `site dev`: starts the embedded backend (unless an endpoint is given), builds the site, serves the
 * build with live reload, and watches site/, runtime/, templates/ and the content. A change rebuilds
 * (the bundle cache skips the client bundle when only content changed; a content change restarts the
 * backend first) and then every open page reloads. Builds run one at a time in a child process, so
 * changed site modules are loaded afresh; changes made during a build start one more build after it.
 *
 * An edit in the backend shows in the open pages first (open-page-renderer.ts): a process kept between
 * edits renders them from the backend as it is now, the dev server serves them in place of the build's
 * files, and they reload at once; the update in place of the whole folder follows, after which a page
 * that already showed what the update wrote is not reloaded again.
 */
export async function startDev(options: DevOptions): Promise<DevSession> {
  const { root, logger } = options;
  const backend: DevBackend | null = options.endpoint === null ? await startDevBackend(root, (line) => logger.warn('backend', line)) : null;
  if (backend) logger.info('dev', `embedded content backend at ${backend.url}`);
  const liveReload = createLiveReload();
  let current: ChildProcess | null = null;
  let closed = false;
  // The open pages rendered first, until a build that saw their edit is done.
  const first = createFirstPages(options.outDir);
  let openPages: OpenPages | null = null;
  // Whether the backend's edits are followed (the site has a change feed), and a build has succeeded: then the renderer runs.
  let following = false;
  let built = false;
  const startRenderer = (): void => {
    if (options.openPagesFirst === false || closed || !following || !built || openPages) return;
    const args = [
      '--endpoint',
      options.endpoint ?? backend!.url,
      '--out',
      options.outDir,
      '--cache-dir',
      options.cacheDir,
      ...options.buildFlags,
    ];
    const started = (openPages = startOpenPages(root, args, logger, () => {
      // It ended on its own (it failed to start, or crashed): the next good build starts another.
      if (openPages !== started || closed) return;
      openPages = null;
      logger.warn(
        'dev',
        'the process that renders the open pages first ended; edits show after the update in place until the next build starts it again',
      );
    }));
    void started.ready().then(async (ok) => {
      if (!ok || closed) return;
      // A first render of the open pages, thrown away, so that the first edit does not wait for the code to warm up.
      await started.render(liveReload.openPaths().length > 0 ? liveReload.openPaths() : ['/'], FIRST_PAGES_TIMEOUT_MS);
      logger.info('dev', 'an edit in the backend shows in the open pages first, then the rest of the site is updated');
    });
  };

  const build = async (): Promise<boolean> => {
    const args = [
      join(root, 'bin/site.js'),
      'build',
      '--endpoint',
      options.endpoint ?? backend!.url,
      '--out',
      options.outDir,
      '--cache-dir',
      options.cacheDir,
      '--no-report',
      ...options.buildFlags,
    ];
    const child = spawn(process.execPath, args, { cwd: root, env: process.env, stdio: ['ignore', 'inherit', 'inherit'] });
    current = child;
    const code = await new Promise<number | null>((ok) => {
      child.once('error', () => ok(null));
      child.once('exit', (exitCode) => ok(exitCode));
    });
    current = null;
    return code === 0;
  };

  let queued: Rebuild | null = null;
  let running: Promise<void> | null = null;
  const runQueue = async (): Promise<void> => {
    while (queued && !closed) {
      const job = queued;
      queued = null;
      const started = performance.now();
      try {
        if (job.restartBackend && backend) {
          logger.info('dev', 'restarting the content backend');
          await backend.restart();
        }
        logger.info('dev', `building (${job.reason})`);
        if (!(await build())) {
          if (closed) return;
          // The build printed its own errors, each with its code and fix.
          logger.warn('dev', 'the build failed (see above); open pages keep the previous build until the next change builds');
          liveReload.send({ type: 'build-failed', message: 'The build failed; the terminal running `site dev` says why.' });
          // A page shown first with the edit that broke the build goes back to the last good build.
          const { dropped } = await first.settle(started, false);
          if (dropped.size > 0) liveReload.send({ type: 'reload', buildId: 'previous' }, (client) => dropped.has(client.path));
          continue;
        }
        const latest = await readLatest(options.outDir);
        const { current } = await first.settle(started, true);
        // A page loaded with what the build then wrote (rendered first, or the folder's unchanged file) stays as it is.
        const reloaded = liveReload.send({ type: 'reload', buildId: latest.id }, (client) => current.get(client.path) !== client.first);
        const already = liveReload.clients() - reloaded;
        logger.info(
          'dev',
          `built ${latest.id} in ${formatDuration(performance.now() - started)}; reloading ${plural(reloaded, 'open page')}${already > 0 ? ` (${plural(already, 'already shows', 'already show')} it)` : ''}`,
        );
        built = true;
        startRenderer();
      } catch (error) {
        if (closed) return;
        logger.error(formatError(error));
        liveReload.send({ type: 'build-failed', message: error instanceof Error ? error.message : String(error) });
      }
    }
  };
  const schedule = (job: Rebuild): void => {
    queued = {
      restartBackend: (queued?.restartBackend ?? false) || job.restartBackend,
      reason: queued ? `${queued.reason}; ${job.reason}` : job.reason,
    };
    running ??= runQueue().finally(() => (running = null));
  };

  schedule({ restartBackend: false, reason: 'first build' });
  const server = await startDevServer({
    root: options.outDir,
    port: options.port,
    host: options.host,
    liveReload,
    overlay: () => first.overlay(),
  });
  logger.info('dev', `serving ${server.url}/ (Ctrl-C to stop)`);
  if (options.buildFlags.includes('--no-search'))
    logger.info(
      'dev',
      "the site search's index is left out, so an edit shows without Pagefind indexing every page again (site dev --search builds it)",
    );

  const backendDirs = backend ? [join(root, 'backend')] : [];
  const overrides =
    backend && options.overridesFile && existsSync(dirname(resolve(options.overridesFile))) ? [resolve(options.overridesFile)] : [];
  const watcher = watchFiles(
    { dirs: [...['site', 'runtime', 'templates'].map((d) => join(root, d)), ...backendDirs], files: overrides },
    (files) => {
      const ofBackend = (f: string): boolean => overrides.includes(f) || backendDirs.some((d) => f.startsWith(d));
      const restartBackend = files.some(ofBackend);
      // The renderer of open pages holds the site's code as it was: another starts after the next build.
      if (!files.every(ofBackend)) {
        openPages?.close();
        openPages = null;
      }
      schedule({
        restartBackend,
        reason: `${files
          .slice(0, 3)
          .map((f) => displayPath(root, f))
          .join(', ')}${files.length > 3 ? ` and ${files.length - 3} more` : ''} changed`,
      });
    },
    {
      onError: (error) =>
        logger.warn('dev', `a watched folder stopped reporting changes (${error.message}); restart site dev to watch it again`),
    },
  );
  logger.info('dev', `watching site/, runtime/, templates/${backend ? ', backend/' : ''}${overrides.length ? ` and ${overrides[0]}` : ''}`);
  // Edits in the backend (its mutations, a CMS) rebuild too, when the site has a change feed.
  const { changeFeed } = await loadChangeFeed();
  // The open pages show the edit first; the update in place of the folder starts once they do (or could not).
  const showFirst = async (what: string): Promise<void> => {
    const at = performance.now();
    const paths = liveReload.openPaths();
    const answer = openPages && paths.length > 0 ? await openPages.render(paths, FIRST_PAGES_TIMEOUT_MS) : null;
    if (answer && !closed) {
      for (const { path, why } of answer.skipped) logger.debug?.('dev', `${path} not rendered first: ${why}`);
      const changed = await first.show(answer.pages, at);
      if (changed.length > 0) {
        const reloaded = liveReload.send({ type: 'reload', buildId: 'first' }, (client) => changed.includes(client.path));
        logger.info(
          'dev',
          `rendered ${changed.length === 1 ? changed[0] : `${changed.length} open pages`} first in ${formatDuration(performance.now() - at)}; reloading ${plural(reloaded, 'open page')}, then updating the rest`,
        );
      }
    }
    schedule({ restartBackend: false, reason: what });
  };
  // One edit's pages at a time, so that an older rendering never replaces a newer one.
  let showing = Promise.resolve();
  const onContent = (what: string): void => {
    showing = showing
      .then(() => showFirst(what))
      .catch((error: unknown) => {
        logger.warn('dev', `the open pages could not be rendered first (${describeCause(error)})`);
        schedule({ restartBackend: false, reason: what });
      });
  };
  const content = changeFeed
    ? followContent(options.endpoint ?? backend!.url, changeFeed, onContent, { onProblem: (message) => logger.warn('dev', message) })
    : null;
  if (content) {
    logger.info('dev', "following the backend's change feed");
    following = true;
    startRenderer();
  }

  return {
    url: server.url,
    async close() {
      closed = true;
      watcher.close();
      content?.close();
      openPages?.close();
      (current as ChildProcess | null)?.kill('SIGTERM');
      await running?.catch(() => undefined);
      await server.close();
      await backend?.close();
    },
  };
}
