import { cp, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './cli.ts';
import { sharedTestDir } from './run-temp-dir.ts';

/**
 * The client bundle, made once per test run. A cold `site build` of the sample spends two thirds of its
 * CPU in rollup (about 6 s of 9), and the bundle depends on the code alone, never on the content: a test
 * about pages, media, drafts or updates in place gains nothing from making it again. Such a test seeds
 * its build cache with the run's bundle entry, sealed under the run's cache key (run-temp-dir.ts points
 * every build of the run at the same key file), so its first build takes the bundle from the cache as
 * every later one does. Tests of the bundle and of cold builds (cache-trust, build-threads, container-files,
 * the reproducible-build and shared-new-cache tests) do not seed.
 *
 * The entry is made by the first test that asks, in the run's temporary folder (under `npm test`, the
 * folder both runners share: the browser tests take the unit run's), while tests of other files wait for
 * it; or it is the folder `TEST_BUNDLE_SEED` names (the browser tests' global set-up points it at the
 * project's build cache, which it seeded).
 */
export async function seedBundle(cacheDir: string): Promise<string> {
  const seed = process.env.TEST_BUNDLE_SEED ?? (await runSeed());
  await cp(seed, join(cacheDir, 'bundle'), { recursive: true, force: true });
  if ((await readdir(join(cacheDir, 'bundle'))).length === 0) throw new Error(`The bundle seed ${seed} is empty.`);
  return cacheDir;
}

// --- internal ---

/** How long a test waits for another file's test to make the run's bundle before it makes its own. */
const WAIT_MS = 180_000;

/** The run's bundle entries (`{cache}/bundle`), made by whichever test file asks first. */
async function runSeed(): Promise<string> {
  const dir = join(sharedTestDir() ?? tmpdir(), 'bundle-seed');
  const bundles = join(dir, 'cache', 'bundle');
  const done = join(dir, 'done');
  if (await exists(done)) return bundles;
  const mine = await mkdir(dir).then(
    () => true,
    () => false,
  );
  if (!mine) {
    for (const start = Date.now(); Date.now() - start < WAIT_MS; await new Promise((r) => setTimeout(r, 200))) {
      if (await exists(done)) return bundles;
    }
  }
  // Loaded only here: most test files never make the bundle.
  const { bundleWithCache } = await import('../../cli/bundle/bundle-cache.ts');
  await bundleWithCache(ROOT, join(dir, `site-${process.pid}`), join(dir, 'cache'));
  await writeFile(done, '');
  return bundles;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
