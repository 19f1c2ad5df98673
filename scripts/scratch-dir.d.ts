/** See scratch-dir.js. */
export const TMPFS_MAGIC: number;
export const MIN_FREE_BYTES: number;
export const MEMORY_DIR: string;
export const MIN_AVAILABLE_MEMORY: number;
export const RUN_FOLDER: RegExp;
export const STALE_AFTER_MS: number;
export function sweepStaleRuns(dir: string, now?: number): string[];
export function scratchDir(options?: {
  env?: Record<string, string | undefined>;
  statfs?: (path: string) => { type: number; bavail: number; bsize: number };
  available?: () => number;
  fallback?: string;
}): { dir: string; reason: string };
