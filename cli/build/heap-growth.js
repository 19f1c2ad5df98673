// Plain JavaScript: bin/site.js sets the heap's growth with it when the command starts, before
// anything can load TypeScript, and the build (content/page-stream.ts) loosens it for a while.
import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the main heap grow past what survived a collection before it collects again. A build
 * makes garbage at a high rate (every page's markup, every answer from the backend) but keeps little:
 * V8's default lets the heap grow up to 4× past what survives, on a large machine over a gigabyte of
 * garbage at 10,000 pages, so the command keeps it at 20%, which holds the resident size near what the
 * build really holds for a few percent more time spent collecting.
 */
export const HEAP_GROWING_PERCENT = 20;

/**
 * While the build holds pages that only grow in number (the stream reading thousands of pages ahead
 * while the client bundles), 20% means a full collection every few megabytes of pages kept, each
 * marking everything kept so far: on a cold build of 10,803 pages that was 2 s of the main thread's
 * CPU. Meanwhile the heap may double past what survived. V8's flags are the process's, so the bundle
 * thread's heap (rollup's module graph, which also only grows) gets the same room while it lasts.
 */
const HOLDING_PERCENT = 100;

/**
 * Where the growth the command set is kept: on the process, not in this module, since the compiled CLI
 * holds a copy of this module of its own (bin/compile-cli.js). Absent when the build runs in a process
 * `site` did not start (tests, an API caller), whose policy the build leaves alone.
 */
const SET = Symbol.for('site.heap-growing-percent');

/** Sets the command's heap growth: once, when `site` starts. */
export function setHeapGrowth() {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  globalThis[SET] = HEAP_GROWING_PERCENT;
}

/**
 * Lets the heap grow further until the returned function is called (V8 reads the flag each time it
 * sizes the heap again). Does nothing unless `site` set the growth when it started.
 */
export function holdingPages() {
  const set = globalThis[SET];
  if (set === undefined) return () => undefined;
  setFlagsFromString(`--heap-growing-percent=${HOLDING_PERCENT}`);
  return () => setFlagsFromString(`--heap-growing-percent=${set}`);
}
