import { cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hashFiles } from '../build/hash-files.js';
import { ASSETS_DIR } from '../../runtime/shared/contract.ts';
import { Worker } from 'node:worker_threads';
import { workerModule } from '../config/worker-module.ts';
import { BuildErrors, createBuildError, reviveError, type ThreadError } from '../errors/errors.ts';
import { describeCause } from '../errors/format-error.ts';
import type { AssetManifest } from './bundle.ts';

/** Everything the client bundle is made from: when none of it changed, the previous bundle is reused. */
const INPUT_DIRS = ['site', 'runtime', 'templates'];
const INPUT_FILES = ['package-lock.json', 'rollup.config.ts', 'tsconfig.json', 'tsconfig.base.json', 'cli/bundle/bundle.ts'];

export interface CachedBundle {
  manifest: AssetManifest;
  /** True when the bundle came from the cache. */
  cached: boolean;
  /** Its entry's name in `{cacheDir}/bundle/` (the hash of its inputs): what the build's state refers to. */
  key: string;
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
    return { manifest, cached: true, key };
  } catch {
    // Not cached (or a damaged entry): build it.
  }
  const manifest = await bundleInThread({ root, siteDir });
  await storeEntry(entry, assetsDir, manifest).catch(() => undefined);
  return { manifest, cached: false, key };
}

/** What the bundle thread is given (bundle-thread.ts). */
export interface BundleThreadInput {
  root: string;
  siteDir: string;
}

/** What it answers: the manifest, or the error that stopped it (its catalogue code kept). */
export type BundleThreadAnswer = { manifest: AssetManifest } | { error: ThreadError };

// --- internal ---

/**
 * Bundles the client in a thread of its own. Rollup keeps a core busy for seconds, and the
 * build's main thread meanwhile asks the backend for pages and cleans their rich text: on the same
 * thread, every answer waited for the bundler. The thread's memory (rollup's module graph, several
 * hundred megabytes at its peak) goes with it when it ends, instead of staying in the build's heap.
 * Rollup, its minifiers and esbuild load only in that thread, and only when the bundle is not cached.
 */
function bundleInThread(input: BundleThreadInput): Promise<AssetManifest> {
  const module = workerModule('bundle-thread', new URL('./bundle-thread.ts', import.meta.url));
  return new Promise<AssetManifest>((resolve, reject) => {
    // The young generation it had when `site build` capped every thread's (bin/site.js): 32 MB.
    const worker = new Worker(module.script, { eval: module.eval, workerData: input, resourceLimits: { maxYoungGenerationSizeMb: 32 } });
    let answered = false;
    worker.once('message', (answer: BundleThreadAnswer) => {
      answered = true;
      if ('manifest' in answer) resolve(answer.manifest);
      else reject(reviveError(answer.error));
    });
    worker.once('error', (error) => {
      answered = true;
      reject(createBuildError(BuildErrors.BundleFailed, [describeCause(error)], { cause: error }));
    });
    worker.once('exit', (code) => {
      if (!answered) reject(createBuildError(BuildErrors.BundleFailed, [`the bundle thread stopped (exit code ${code}) before it finished`]));
    });
  });
}

/** Writes the entry beside its final name and renames it into place, so a crash never leaves half an entry. */
async function storeEntry(entry: string, assetsDir: string, manifest: AssetManifest): Promise<void> {
  const temp = `${entry}.tmp-${process.pid}`;
  await rm(temp, { recursive: true, force: true });
  await mkdir(temp, { recursive: true });
  await cp(assetsDir, join(temp, 'assets'), { recursive: true });
  await writeFile(join(temp, 'manifest.json'), JSON.stringify(manifest));
  await rename(temp, entry).catch(async () => rm(temp, { recursive: true, force: true }));
}
