import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { BuildErrors, createBuildError } from '../errors/errors.ts';
import { describeCause } from '../errors/format-error.ts';
import type { Logger } from '../terminal/logger.ts';
import { createOpenPageRenderer, type OpenPageRendererOptions, type OpenPagesAnswer } from './open-page-renderer.ts';

/**
 * The process `site dev` keeps for rendering the open pages first (open-page-renderer.ts), and the
 * messages between them: `site dev` asks for paths, the process answers with the pages.
 */

/** `site dev`'s side: the running renderer process. */
export interface OpenPages {
  /** True once the renderer has loaded what it needs; false when it ended before. */
  ready(): Promise<boolean>;
  /** The pages rendered, or null when the renderer is not (or no longer) running, fails or takes longer than `timeoutMs`. */
  render(paths: readonly string[], timeoutMs: number): Promise<OpenPagesAnswer | null>;
  /** Stops the process (its code changed, or `site dev` ends). */
  close(): void;
}

type Request = { id: number; paths: readonly string[] };
type Answer = { type: 'ready' } | { type: 'answer'; id: number; answer?: OpenPagesAnswer; error?: string };

/**
 * Starts the renderer: `bin/site.js dev-pages` with `args` (the endpoint, output and cache folders and
 * the flags every dev build gets, so a page renders as the build would render it). It loads the site's
 * code and the client bundle once; until then, and if it fails to start, `render` answers null and the
 * update in place alone shows the edit. `onEnd` is called when it ends without `close()`.
 */
export function startOpenPages(root: string, args: readonly string[], logger: Logger, onEnd: () => void = () => undefined): OpenPages {
  const child: ChildProcess = spawn(process.execPath, [join(root, 'bin/site.js'), 'dev-pages', ...args], {
    cwd: root,
    env: process.env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, (answer: OpenPagesAnswer | null) => void>();
  let ready = false;
  let ended = false;
  let next = 0;
  let settleReady!: (ok: boolean) => void;
  const readiness = new Promise<boolean>((resolve) => (settleReady = resolve));
  let closing = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    if (!closing) onEnd();
    settleReady(false);
    for (const resolve of waiting.values()) resolve(null);
    waiting.clear();
  };
  child.on('message', (message: Answer) => {
    if (message.type === 'ready') {
      ready = true;
      settleReady(true);
    } else {
      if (message.error)
        logger.warn('dev', `the open pages could not be rendered first (${message.error}); the update in place shows the edit`);
      waiting.get(message.id)?.(message.answer ?? null);
      waiting.delete(message.id);
    }
  });
  child.once('error', end);
  child.once('exit', end);
  return {
    ready: () => readiness,
    render(paths, timeoutMs) {
      if (!ready || ended || paths.length === 0) return Promise.resolve(null);
      const id = ++next;
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          resolve(null);
        }, timeoutMs);
        waiting.set(id, (answer) => {
          clearTimeout(timer);
          resolve(answer);
        });
        child.send({ id, paths } satisfies Request);
      });
    },
    close() {
      closing = true;
      end();
      if (child.exitCode === null) child.kill('SIGTERM');
    },
  };
}

/**
 * The renderer process (`site dev-pages`): answers each request in turn, until `site dev` goes away.
 * Started without an IPC channel (by hand), it says what it is for and ends.
 */
export async function runOpenPages(config: OpenPageRendererOptions, logger: Logger): Promise<void> {
  const send = process.send?.bind(process);
  if (!send)
    throw createBuildError(BuildErrors.UsageError, [
      'site dev-pages is started by site dev, which asks it for pages over an IPC channel; run site dev instead',
    ]);
  // `site dev` ends, or starts another renderer for changed code: the renderer's folder goes with it, even while it starts.
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  process.once('disconnect', () => stop());
  process.once('SIGTERM', () => stop());
  // Ctrl-C reaches every process of the terminal's group: this one too, which then cleans up as on SIGTERM.
  process.once('SIGINT', () => stop());
  const creating = createOpenPageRenderer(config, logger);
  const renderer = await Promise.race([creating, stopped.then(() => null)]);
  if (!renderer) {
    await creating.then(
      (started) => started.close(),
      () => undefined,
    );
    process.exit(0);
  }
  // A request answered after `site dev` went away has nobody to go to.
  const reply = (answer: Answer): void => {
    if (process.connected) send(answer);
  };
  let queue = Promise.resolve();
  // The request waiting its turn: a newer one replaces it (the backend has changed again since), so edits never queue up.
  let waiting: Request | null = null;
  process.on('message', (request: Request) => {
    if (waiting)
      reply({
        type: 'answer',
        id: waiting.id,
        answer: { pages: [], skipped: waiting.paths.map((path) => ({ path, why: 'a newer edit asked for the open pages' })) },
      });
    waiting = request;
    queue = queue.then(async () => {
      const next = waiting;
      waiting = null;
      if (!next) return;
      try {
        reply({ type: 'answer', id: next.id, answer: await renderer.render(next.paths) });
      } catch (error) {
        reply({ type: 'answer', id: next.id, error: describeCause(error) });
      }
    });
  });
  reply({ type: 'ready' });
  await stopped;
  await queue;
  await renderer.close();
  process.exit(0);
}
