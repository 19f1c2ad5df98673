import { cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hashFiles } from '../build/hash-files.js';
import { ASSETS_DIR } from '../../runtime/shared/contract.ts';
import type { AssetManifest } from './bundle.ts';

/** Everything the client bundle is made from: when none of it changed, the previous bundle is reused. */
const INPUT_DIRS = ['site', 'runtime', 'templates'];
const INPUT_FILES = ['package-lock.json', 'rollup.config.ts', 'tsconfig.json', 'tsconfig.base.json', 'cli/bundle/bundle.ts'];

export interface CachedBundle {
  manifest: AssetManifest;
  /** True when the bundle came from the cache. */
  cached: boolean;
}

/**
 * Bundles the client into `{siteDir}/_assets`, or copies the identical bundle from
 * `{cacheDir}/bundle/{inputsHash}` when the code has not changed since a previous build.
 */
export async function bundleWithCache(root: string, siteDir: string, cacheDir: string): Promise<CachedBundle> {
  const key = await hashFiles(root, INPUT_DIRS, INPUT_FILES);
  const entry = join(cacheDir, 'bundle', key);
  const assetsDir = join(siteDir, ASSETS_DIR);
  try {
    const manifest = JSON.parse(await readFile(join(entry, 'manifest.json'), 'utf8')) as AssetManifest;
    await cp(join(entry, 'assets'), assetsDir, { recursive: true });
    return { manifest, cached: true };
  } catch {
    // Not cached (or a damaged entry): build it.
  }
  // Loaded only now: rollup, terser and esbuild take a tenth of a second to load, and most builds find
  // the bundle cached.
  const { bundleClient } = await import('./bundle.ts');
  const manifest = await bundleClient(root, siteDir);
  await storeEntry(entry, assetsDir, manifest).catch(() => undefined);
  return { manifest, cached: false };
}

// --- internal ---

/** Writes the entry beside its final name and renames it into place, so a crash never leaves half an entry. */
async function storeEntry(entry: string, assetsDir: string, manifest: AssetManifest): Promise<void> {
  const temp = `${entry}.tmp-${process.pid}`;
  await rm(temp, { recursive: true, force: true });
  await mkdir(temp, { recursive: true });
  await cp(assetsDir, join(temp, 'assets'), { recursive: true });
  await writeFile(join(temp, 'manifest.json'), JSON.stringify(manifest));
  await rename(temp, entry).catch(async () => rm(temp, { recursive: true, force: true }));
}
