// Where `npm test` puts the files its tests make: builds, object stores, caches, thousands of small
// files written, renamed, linked and removed. On a disk that trims what is deleted (mounted with online
// discard, as this project's machines are), the kernel's share of that work was about a third of the
// suite's CPU time; in memory (tmpfs) it is a fraction of it (docs/performance.md, "eighth pass"). The
// tests are about what the files hold, not the disk under them.
import { lstatSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import { freemem, tmpdir } from 'node:os';
import { join } from 'node:path';

/** The file system type statfs reports for tmpfs (Linux's TMPFS_MAGIC). */
export const TMPFS_MAGIC = 0x01021994;
/** The room a memory folder must have left: the suite's peak, with a margin (docs/performance.md, "eighth pass"). */
export const MIN_FREE_BYTES = 6 * 1024 ** 3;
/**
 * The memory the machine must have available besides: what a tmpfs holds is memory, and its size limit
 * is often the machine's whole memory, so its free space alone would let the tests' files crowd out the
 * tests' processes and Chromium. The suite's processes peak at a few GiB.
 */
export const MIN_AVAILABLE_MEMORY = 12 * 1024 ** 3;
/** Linux's memory-backed folder, on every distribution (a container's may be small: then it is not taken). */
export const MEMORY_DIR = '/dev/shm';

/**
 * The folder the test runs make their temporary folders in: TEST_TMPDIR when set; else /dev/shm when it
 * is a tmpfs with MIN_FREE_BYTES free and the machine has MIN_AVAILABLE_MEMORY available; else the
 * system's temporary folder.
 * @param {{ env?: Record<string, string | undefined>, statfs?: (path: string) => { type: number, bavail: number, bsize: number }, available?: () => number, fallback?: string }} [options]
 * @returns {{ dir: string, reason: string }}
 */
export function scratchDir({ env = process.env, statfs = statfsSync, available = availableMemory, fallback = tmpdir() } = {}) {
  if (env.TEST_TMPDIR) return { dir: env.TEST_TMPDIR, reason: 'TEST_TMPDIR' };
  let info;
  try {
    info = statfs(MEMORY_DIR);
  } catch {
    return { dir: fallback, reason: `${MEMORY_DIR} is missing` };
  }
  if (info.type !== TMPFS_MAGIC) return { dir: fallback, reason: `${MEMORY_DIR} is not in memory (tmpfs)` };
  const free = info.bavail * info.bsize;
  if (free < MIN_FREE_BYTES) return { dir: fallback, reason: `${MEMORY_DIR} has ${gib(free)} GiB free, under ${gib(MIN_FREE_BYTES)}` };
  const memory = available();
  if (memory < MIN_AVAILABLE_MEMORY)
    return { dir: fallback, reason: `the machine has ${gib(memory)} GiB of memory available, under ${gib(MIN_AVAILABLE_MEMORY)}` };
  return { dir: MEMORY_DIR, reason: `in memory (tmpfs, ${gib(free)} GiB free)` };
}

/** The names of the folders a test run makes in its temporary folder (test-all.js, tests/helpers/run-temp-dir.ts). */
export const RUN_FOLDER = /^site-(test-shared|vitest|e2e-run)-/;
/** Older than any run: a folder of a run that was stopped before it cleaned up. */
export const STALE_AFTER_MS = 12 * 60 * 60 * 1000;

/**
 * Removes from `dir` the folders of earlier test runs that were stopped before they removed them
 * (Ctrl-C, a killed CI job), this user's and last changed more than STALE_AFTER_MS ago: in memory they would hold it
 * until the machine restarts. A run that is going on changes its folder far more often than that.
 * @param {string} dir
 * @param {number} [now]
 * @returns {string[]} the folders removed
 */
export function sweepStaleRuns(dir, now = Date.now()) {
  const removed = [];
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names.filter((n) => RUN_FOLDER.test(n))) {
    const path = join(dir, name);
    try {
      // A folder of this user's, not a link to one, nor another user's run (KEEP_TEST_TMP may have kept it).
      const stats = lstatSync(path);
      if (!stats.isDirectory() || stats.uid !== process.getuid?.() || now - stats.mtimeMs <= STALE_AFTER_MS) continue;
      rmSync(path, { recursive: true, force: true, maxRetries: 3 });
      removed.push(path);
    } catch {
      // Gone meanwhile, or not ours to remove: left as it is.
    }
  }
  return removed;
}

/** The memory this process may still use: its container's limit where there is one (cgroups), else the machine's. */
function availableMemory() {
  return typeof process.availableMemory === 'function' ? process.availableMemory() : freemem();
}

function gib(bytes) {
  return (bytes / 1024 ** 3).toFixed(1);
}
