import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { installedPackages } from './installed-packages.ts';

/**
 * Which Pagefind runs, as Pagefind's package chooses its binary (lib/resolveBinary.js): its packages, the
 * platform's, and a binary named by PAGEFIND_BINARY_PATH or PAGEFIND_EXTENDED_BINARY_PATH, by its size and
 * time (npm_config_arch picks another platform's package). What the search cache's keys name
 * (cli/output/search-index.ts); null when that cannot be told: the build then uses no cache.
 */
export function whichPagefind(): string | null {
  if (pagefindRun !== undefined) return pagefindRun;
  try {
    const named = [process.env.PAGEFIND_BINARY_PATH, process.env.PAGEFIND_EXTENDED_BINARY_PATH].map((file) => {
      if (!file) return '';
      const info = statSync(file);
      return `${file}:${info.size}:${info.mtimeMs}`;
    });
    pagefindRun = [
      ...installedPackages('pagefind', fileURLToPath(import.meta.url), { optional: true }),
      ...named,
      process.platform,
      process.env.npm_config_arch ?? process.arch,
    ].join('\0');
  } catch {
    pagefindRun = null;
  }
  return pagefindRun;
}

let pagefindRun: string | null | undefined;
