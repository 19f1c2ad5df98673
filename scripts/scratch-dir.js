// Where `npm test` puts the files its tests make: builds, object stores, caches, thousands of small
// files written, renamed, linked and removed. On a disk that trims what is deleted (mounted with online
// discard, as this project's machines are), the kernel's share of that work was about a third of the
// suite's CPU time; in memory (tmpfs) it is a fraction of it (docs/performance.md, "eighth pass"). The
// tests are about what the files hold, not the disk under them.
import { statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** The file system type statfs reports for tmpfs (Linux's TMPFS_MAGIC). */
export const TMPFS_MAGIC = 0x01021994;
/** The room a memory folder must have left: the suite's peak, with a margin (docs/performance.md, "eighth pass"). */
export const MIN_FREE_BYTES = 6 * 1024 ** 3;
/** Linux's memory-backed folder, on every distribution (a container's may be small: then it is not taken). */
export const MEMORY_DIR = '/dev/shm';

/**
 * The folder the test runs make their temporary folders in: TEST_TMPDIR when set; else /dev/shm when it
 * is a tmpfs with MIN_FREE_BYTES free; else the system's temporary folder.
 * @param {{ env?: Record<string, string | undefined>, statfs?: (path: string) => { type: number, bavail: number, bsize: number }, fallback?: string }} [options]
 * @returns {{ dir: string, reason: string }}
 */
export function scratchDir({ env = process.env, statfs = statfsSync, fallback = tmpdir() } = {}) {
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
  return { dir: MEMORY_DIR, reason: `in memory (tmpfs, ${gib(free)} GiB free)` };
}

function gib(bytes) {
  return (bytes / 1024 ** 3).toFixed(1);
}
