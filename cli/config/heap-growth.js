// Plain JavaScript: bin/site.js sets the heap's growth with it when the command starts, before
// anything can load TypeScript, and the build (content/page-stream.ts) loosens it for a while.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the main heap grow past what survived a collection before it collects again, for a
 * large heap. A build makes garbage at a high rate (every page's markup, every answer from the backend)
 * but keeps little: V8's default lets the heap grow up to 4× past what survives, on a large machine over
 * a gigabyte of garbage at 10,000 pages, so the command keeps it at 20%, which holds the resident size
 * near what the build really holds for a few percent more time spent collecting.
 */
export const HEAP_GROWING_PERCENT = 20;

/**
 * What the heap may grow by before it collects while pages render and the heap is small, however little
 * survived. Pages pass through the main heap (read ahead, rendered, handed to the writers) and most of
 * them live long enough to leave the young generation: 20% of a 40 MB heap meant a full collection every
 * 8 MB of them, about three a second on 10,000 pages, and their marking took the other CPU from the
 * render thread. A heap under SMALL_HEAP_BYTES may grow by this much instead (at most HOLDING_PERCENT).
 * V8's flag is the process's: the render and page-write threads' heaps grow by as much, so a large
 * build (whose main heap passes SMALL_HEAP_BYTES early) keeps 20%, which holds its peak where it was
 * (docs/decisions/heap-growth.md). `SITE_HEAP_MIN_GROWTH_MB=0` turns it off: 20% at every size.
 */
export const MIN_GROWTH_BYTES = minGrowthMb(process.env.SITE_HEAP_MIN_GROWTH_MB) * 1024 * 1024;

/** The main heap's size from which the growth is HEAP_GROWING_PERCENT again. */
export const SMALL_HEAP_BYTES = 96 * 1024 * 1024;

/**
 * While the build holds pages that only grow in number (the stream reading thousands of pages ahead
 * while the client bundles), 20% means a full collection every few megabytes of pages kept, each
 * marking everything kept so far: on a cold build of 10,803 pages that was 2 s of the main thread's
 * CPU. Meanwhile the heap may double past what survived. V8's flags are the process's, so the bundle
 * thread's heap (rollup's module graph, which also only grows) gets the same room while it lasts.
 */
const HOLDING_PERCENT = 100;

/** How often the growth is fitted to the heap's size while pages render: V8 reads the flag each time it sizes the heap again. */
const FIT_EVERY_MS = 250;

/**
 * Where the command's growth policy is kept: on the process, not in this module, since the compiled CLI
 * holds a copy of this module of its own (bin/compile-cli.js). Absent when the build runs in a process
 * `site` did not start (tests, an API caller), whose policy the build leaves alone.
 */
const SET = Symbol.for('site.heap-growth');

/**
 * The growth, in percent, while pages render, for a main heap using `usedBytes`: under SMALL_HEAP_BYTES,
 * enough for MIN_GROWTH_BYTES, up to HOLDING_PERCENT, in steps of 5 (so the flag is not set again for
 * every megabyte); HEAP_GROWING_PERCENT at the least and from SMALL_HEAP_BYTES on.
 */
export function growingPercent(usedBytes) {
  if (usedBytes >= SMALL_HEAP_BYTES) return HEAP_GROWING_PERCENT;
  const wanted = Math.ceil((MIN_GROWTH_BYTES / Math.max(usedBytes, 1)) * 20) * 5;
  return Math.min(HOLDING_PERCENT, Math.max(HEAP_GROWING_PERCENT, wanted));
}

/**
 * Sets the command's heap growth when `site` starts; from then on it follows what the build holds, and
 * while pages render, the heap's size (read every FIT_EVERY_MS then, never otherwise).
 */
export function setHeapGrowth() {
  const policy = { holding: 0, rendering: 0, percent: 0, timer: undefined, fit };
  function fit() {
    const percent =
      policy.holding > 0
        ? HOLDING_PERCENT
        : policy.rendering > 0
          ? growingPercent(getHeapStatistics().used_heap_size)
          : HEAP_GROWING_PERCENT;
    if (policy.rendering > 0) policy.timer ??= setInterval(fit, FIT_EVERY_MS).unref();
    else if (policy.timer !== undefined) {
      clearInterval(policy.timer);
      policy.timer = undefined;
    }
    if (percent === policy.percent) return;
    policy.percent = percent;
    setFlagsFromString(`--heap-growing-percent=${percent}`);
  }
  globalThis[SET] = policy;
  fit();
}

/**
 * Lets the heap grow further (HOLDING_PERCENT) until the returned function is called: while the build
 * holds pages that only grow in number. Does nothing unless `site` set the growth when it started.
 */
export function holdingPages() {
  return hold('holding');
}

/**
 * Lets the heap grow by at least MIN_GROWTH_BYTES until the returned function is called: while pages
 * render. Does nothing unless `site` set the growth when it started.
 */
export function renderingPages() {
  return hold('rendering');
}

// --- internal ---

function hold(what) {
  const policy = globalThis[SET];
  if (policy === undefined) return () => undefined;
  policy[what]++;
  policy.fit();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    policy[what]--;
    policy.fit();
  };
}

/** The minimum growth in MB the variable asks for: a whole number from 0, else the default, 48. */
function minGrowthMb(value) {
  return value !== undefined && /^\d{1,5}$/.test(value.trim()) ? Number(value.trim()) : 48;
}
