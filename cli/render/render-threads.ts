import { Worker } from 'node:worker_threads';
import type { PageDone, PageRenderer, PageTask } from './page-renderer.ts';
import type { RenderContext } from './render.tsx';
import { reviveError, type ThreadError } from '../errors/errors.ts';
import { workerModule } from '../config/worker-module.ts';

/** The build context a render thread needs; it loads the site's code (routes, layouts, pages) itself. */
export interface RenderThreadInit {
  ctx: Omit<RenderContext, 'routes' | 'layouts' | 'modules'>;
  siteDir: string;
  payloadBudget: number;
  sharedMarkup: boolean;
  /** The previous output, whose files identical to a page's are linked rather than written; null: write every file. */
  reuseFrom: string | null;
  /** Pages of searched routes give their search entries (the thread finds the routes in the site's code). */
  search: boolean;
}

export type ToThread =
  | ({ type: 'init' } & RenderThreadInit)
  | { type: 'pages'; id: number; tasks: PageTask[] }
  | { type: 'drain'; id: number };
export type FromThread =
  | { type: 'ready' }
  | { type: 'done'; id: number; done: PageDone[] }
  | { type: 'drained'; id: number }
  | ({ type: 'failed'; id: number } & ThreadError);

export interface RenderThreads {
  /** Threads that have loaded the site's code and can take pages; asked once per page to render (see `afterPages`). */
  hasReady(): boolean;
  /** From now on, the threads start once `pages` pages were asked to render: now, if as many were already (or 0). */
  startAfter(pages: number): void;
  /** Gives every thread the build context; pages can be sent after this. */
  init(init: RenderThreadInit): void;
  /**
   * Sends a batch of pages to the ready thread with the least work queued, or returns null when every
   * ready thread already has `maxQueued` batches: the caller may render the pages itself meanwhile.
   */
  trySend(tasks: PageTask[]): Promise<PageDone[]> | null;
  /** Waits for every thread's writes. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** Batches queued per thread: enough that a thread never waits for the main thread, few enough to stay small. */
const MAX_QUEUED = 3;

/**
 * Starts `count` render threads, at once or, with `afterPages`, once that many pages were asked to
 * render (the main thread renders them meanwhile). A thread loads React and the site's code before its
 * first page, about as long as the main thread takes to render a hundred or two: a build with fewer
 * pages than that to render (an update in place, a small site) is done sooner without them, and on two
 * CPUs their loading took CPU from the main thread, which does the rest of the build (cli/build/build.ts).
 */
export function startRenderThreads(count: number, options: { afterPages?: number } = {}): RenderThreads {
  let afterPages = options.afterPages ?? 0;
  let threads: Thread[] = [];
  /** The build context init() gave, for threads started after it. */
  let context: RenderThreadInit | null = null;
  let asked = 0;
  const start = (): void => {
    if (threads.length > 0) return;
    threads = Array.from({ length: count }, () => startThread());
    if (context) for (const thread of threads) thread.post({ type: 'init', ...context });
  };
  if (afterPages === 0) start();
  return {
    startAfter(pages) {
      afterPages = pages;
      if (asked >= afterPages) start();
    },
    hasReady() {
      if (threads.length === 0 && ++asked >= afterPages) start();
      return context !== null && threads.some((t) => t.ready);
    },
    init(init) {
      context = init;
      for (const thread of threads) thread.post({ type: 'init', ...init });
    },
    trySend(tasks) {
      const candidates = threads.filter((t) => t.ready && context && t.queued < MAX_QUEUED);
      if (candidates.length === 0) return null;
      const thread = candidates.reduce((a, b) => (b.queued < a.queued ? b : a));
      return thread.request<PageDone[]>((id) => ({ type: 'pages', id, tasks }));
    },
    async drain() {
      await Promise.all(threads.filter((t) => t.ready && context).map((t) => t.request<void>((id) => ({ type: 'drain', id }))));
    },
    async close() {
      // A thread ended while it still loads its modules can abort the whole process (V8's "Check failed:
      // (location_) != nullptr", nodejs/node#42501), which threads started late make likely: a build that
      // started one near its last pages ends before it is ready. Each is ended once ready (or stopped).
      await Promise.all(
        threads.map(async (thread) => {
          // Referenced while waited for: the build's process would otherwise end with nothing left to run.
          thread.worker.ref();
          await thread.settled;
          await thread.worker.terminate();
        }),
      );
    },
  };
}

/** Where the build hands each page to render; see createPageDispatcher. */
export interface PageDispatcher {
  /** Renders the page here or queues it for a thread; `data` is the task's parsed JSON. */
  page(task: PageTask, data: unknown): Promise<void>;
  /** Sends what is queued and waits for every thread's answer; throws the first failure. */
  finish(): Promise<void>;
}

/** Pages the main thread renders between turns of the event loop (for network and file I/O). */
const YIELD_EVERY = 8;

/** Pages sent to a render thread at once: large enough that messaging costs little per page. */
const BATCH = 32;

/**
 * Hands pages to the render threads in batches, and renders on the main thread whenever no thread is
 * ready (while they start, or for a small site) or every thread already has its fill of work. `take`
 * gets every finished page, wherever it was rendered.
 */
export function createPageDispatcher(
  local: PageRenderer,
  threads: RenderThreads | null,
  take: (done: readonly PageDone[], threaded?: boolean) => void,
): PageDispatcher {
  let batch: { task: PageTask; data: unknown }[] = [];
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;
  let sinceYield = 0;
  const renderHere = async (item: { task: PageTask; data: unknown }): Promise<void> => {
    take([await local.render(item.task, item.data)]);
    // Rendering is synchronous and the writer's promises settle as microtasks: without a turn of the
    // event loop now and then, the backend's answers would wait until the read-ahead ran dry.
    if (++sinceYield >= YIELD_EVERY) {
      sinceYield = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const send = async (): Promise<void> => {
    while (batch.length > 0) {
      const sent = threads!.trySend(batch.map((b) => b.task));
      if (sent) {
        // A failure of the thread's pages, or of taking them, is the build's: it is thrown by the next page or by finish().
        const job = sent.then((done) => take(done, true)).catch((error: unknown) => void (failure ??= { error }));
        inFlight.add(job);
        void job.finally(() => inFlight.delete(job));
        batch = [];
        return;
      }
      // Every thread is busy: the main thread renders one of the pages meanwhile.
      await renderHere(batch.shift()!);
    }
  };
  return {
    async page(task, data) {
      if (failure) throw failure.error;
      if (!threads?.hasReady()) return renderHere({ task, data });
      batch.push({ task, data });
      if (batch.length >= BATCH) await send();
    },
    async finish() {
      if (batch.length > 0) await send();
      await Promise.all(inFlight);
      if (failure) throw failure.error;
    },
  };
}

// --- internal ---

interface Thread {
  worker: Worker;
  ready: boolean;
  /** Resolves once the thread is ready for pages, has stopped, or has taken a minute to do neither. */
  settled: Promise<void>;
  queued: number;
  post(message: ToThread): void;
  request<T>(message: (id: number) => ToThread): Promise<T>;
}

function startThread(): Thread {
  const module = workerModule('render-thread', new URL('./render-thread.ts', import.meta.url));
  const worker = new Worker(module.script, {
    eval: module.eval,
    // A render thread's garbage is short-lived (each page's elements and markup): a young generation
    // that holds a few pages' worth lets it die there instead of being promoted; larger gains nothing
    // more (docs/decisions/render-threads.md).
    resourceLimits: { maxYoungGenerationSizeMb: 32 },
  });
  const pending = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  const failAll = (error: Error): void => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  const settling = Promise.withResolvers<void>();
  const waited = setTimeout(settling.resolve, 60_000);
  waited.unref();
  void settling.promise.then(() => clearTimeout(waited));
  const thread: Thread = {
    worker,
    ready: false,
    settled: settling.promise,
    queued: 0,
    post: (message) => worker.postMessage(message),
    request<T>(message: (id: number) => ToThread): Promise<T> {
      const id = nextId++;
      thread.queued++;
      // Referenced while it owes an answer, so the process waits for it; unreferenced when idle.
      worker.ref();
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: never) => void, reject });
        worker.postMessage(message(id));
      }).finally(() => {
        thread.queued--;
        if (pending.size === 0) worker.unref();
      });
    },
  };
  worker.on('message', (message: FromThread) => {
    if (message.type === 'ready') {
      thread.ready = true;
      settling.resolve();
      return;
    }
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (message.type === 'failed') {
      const error = reviveError(message);
      if (waiting) waiting.reject(error);
      else failAll(error);
      return;
    }
    waiting?.resolve((message.type === 'done' ? message.done : undefined) as never);
  });
  worker.on('error', (error) => {
    settling.resolve();
    failAll(error);
  });
  worker.on('exit', (code) => {
    settling.resolve();
    thread.ready = false;
    failAll(new Error(`A render thread stopped (exit code ${code}) while pages were being rendered.`));
  });
  // A build that ends before a thread has started must not wait for it.
  worker.unref();
  return thread;
}
