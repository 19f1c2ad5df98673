import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { hashFiles } from '../config/hash-files.js';
import { ASSETS_DIR } from '../../runtime/shared/contract.ts';
import { Worker } from 'node:worker_threads';
import { workerModule } from '../config/worker-module.ts';
import { cacheKeyFor, type CacheKey } from '../config/cache-key.ts';
import { installedManifests } from '../config/installed-packages.ts';
import { BuildErrors, createBuildError, reviveError, type ThreadError } from '../errors/errors.ts';
import { describeCause } from '../errors/format-error.ts';
import { readBytes, readText } from '../output/read.ts';
import type { AssetManifest } from './bundle.ts';

/**
 * Everything the client bundle is made from: when none of it changed, the previous bundle is reused; with
 * them, what is installed (installedManifests: npm's record of the installed tree and each declared dependency's
 * package.json), so that packages installed unlike the lock file make the bundle again. The document shell (templates/) is not: rollup
 * never reads it, and a shell edit re-renders every page (the generator fingerprint) with the bundle it had.
 */
const INPUT_DIRS = ['site', 'runtime'];
const INPUT_FILES = ['package-lock.json', 'rollup.config.ts', 'tsconfig.json', 'tsconfig.base.json', 'cli/bundle/bundle.ts'];

export interface CachedBundle {
  manifest: AssetManifest;
  /** True when the bundle came from the cache. */
  cached: boolean;
  /** Its entry's name in `{cacheDir}/bundle/` (the hash of its inputs): what the build's state refers to. */
  key: string;
}

/**
 * Bundles the client into `{siteDir}/_assets`, or takes the identical bundle from
 * `{cacheDir}/bundle/{inputsHash}` when the code has not changed since a previous build. The bundle is
 * the site's JavaScript, so an entry is used only when its seal verifies under the build cache's key
 * (cli/config/cache-key.ts): the manifest, and each file's name, size and SHA-256, signed by the build
 * that made it. The files written are the bytes that were checked, never read again from the cache.
 */
export async function bundleWithCache(root: string, siteDir: string, cacheDir: string): Promise<CachedBundle> {
  const inputs = await hashFiles(root, INPUT_DIRS, [...INPUT_FILES, ...installedManifests(root)]);
  const entry = join(cacheDir, 'bundle', inputs);
  const assetsDir = join(siteDir, ASSETS_DIR);
  const key = cacheKeyFor(cacheDir);
  const cached = await readEntry(entry, inputs, key);
  if (cached) {
    for (const [name, bytes] of cached.files) {
      const target = join(assetsDir, ...name.split('/'));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, bytes);
    }
    return { manifest: cached.manifest, cached: true, key: inputs };
  }
  const manifest = await bundleInThread({ root, siteDir });
  await storeEntry(entry, inputs, assetsDir, manifest, key).catch(() => undefined);
  return { manifest, cached: false, key: inputs };
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
      if (!answered)
        reject(createBuildError(BuildErrors.BundleFailed, [`the bundle thread stopped (exit code ${code}) before it finished`]));
    });
  });
}

/** Bumped when an entry's layout changes. */
const FORMAT = 'site-bundle-cache/2';

/** An entry's seal (`{entry}/seal`): the MAC in hex, a newline, then this as JSON. */
interface Sealed {
  manifest: AssetManifest;
  /** Each file under assets/, by its `/`-separated name, with its size and SHA-256 (base64url). */
  files: [name: string, size: number, sha256: string][];
}

/**
 * The entry's manifest and files when its seal verifies under `key` for these inputs and every file is a
 * plain file of the size and hash it names; else null (the bundle is built again, and the entry replaced).
 */
async function readEntry(
  entry: string,
  inputs: string,
  key: CacheKey,
): Promise<{ manifest: AssetManifest; files: [string, Buffer][] } | null> {
  try {
    const seal = await readText(join(entry, 'seal'));
    const newline = seal.indexOf('\n');
    const body = seal.slice(newline + 1);
    if (newline !== 64 || !key.verify(Buffer.from(seal.slice(0, 64), 'hex'), FORMAT, inputs, body)) return null;
    const sealed = JSON.parse(body) as Sealed;
    const files: [string, Buffer][] = [];
    for (const [name, size, sha256] of sealed.files) {
      if (!name.split('/').every((part) => PLAIN_NAME.test(part))) return null;
      const bytes = await readBytes(join(entry, 'assets', ...name.split('/')));
      if (bytes.length !== size || sha256Of(bytes) !== sha256) return null;
      files.push([name, bytes]);
    }
    return { manifest: sealed.manifest, files };
  } catch {
    // Not cached, or a damaged entry.
    return null;
  }
}

/** A part of a bundle file's name: what rollup writes (letters, digits, dots, dashes, underscores), never only dots. */
const PLAIN_NAME = /^(?!\.+$)[A-Za-z0-9._-]{1,255}$/;

/**
 * Writes the entry beside its final name and renames it into place, so a crash never leaves half an
 * entry; an entry already there (one that did not verify) is replaced.
 */
async function storeEntry(entry: string, inputs: string, assetsDir: string, manifest: AssetManifest, key: CacheKey): Promise<void> {
  const temp = `${entry}.tmp-${process.pid}`;
  await rm(temp, { recursive: true, force: true });
  const files: Sealed['files'] = [];
  for (const file of await filesUnder(assetsDir)) {
    const name = relative(assetsDir, file).split(sep).join('/');
    const bytes = await readBytes(file);
    const target = join(temp, 'assets', ...name.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, bytes);
    files.push([name, bytes.length, sha256Of(bytes)]);
  }
  const body = JSON.stringify({ manifest, files } satisfies Sealed);
  await writeFile(join(temp, 'seal'), `${key.sign(FORMAT, inputs, body).toString('hex')}\n${body}`);
  await rm(entry, { recursive: true, force: true });
  await rename(temp, entry).catch(async () => rm(temp, { recursive: true, force: true }));
}

/** A bundle file's SHA-256 as its seal names it (base64url). */
function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64url');
}

/** Every file under `dir`, recursively (links not followed). */
async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((item) => item.isFile())
    .map((item) => join(item.parentPath, item.name));
}
