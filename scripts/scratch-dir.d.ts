/** See scratch-dir.js. */
export const TMPFS_MAGIC: number;
export const MIN_FREE_BYTES: number;
export const MEMORY_DIR: string;
export function scratchDir(options?: {
  env?: Record<string, string | undefined>;
  statfs?: (path: string) => { type: number; bavail: number; bsize: number };
  fallback?: string;
}): { dir: string; reason: string };
