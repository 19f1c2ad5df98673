import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Points TMPDIR (and XDG_CONFIG_HOME) at a new folder for the whole test run, so every temporary folder
 * a test, a server it starts or the CLI makes lands in it; returns the function that removes it at the end of the run.
 * Tests create hundreds of folders (builds, object stores, caches) and a run must not leave gigabytes
 * behind. KEEP_TEST_TMP=1 keeps the folder for a look after a failure.
 */
export async function useRunTempDir(prefix: string): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  process.env.TMPDIR = dir;
  // The build cache's key file (cli/config/cache-key.ts) goes there too, not into the user's home; under
  // `npm test`, in the folder both runners share (sharedTestDir), so the browser tests' builds take the
  // client bundle the unit run made, sealed under the same key.
  process.env.XDG_CONFIG_HOME = join(sharedTestDir() ?? dir, 'config');
  return async () => {
    if (process.env.KEEP_TEST_TMP) console.log(`Test files kept in ${dir}`);
    else await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}

/**
 * The folder `npm test` (scripts/test-all.js) makes for both runners and removes after them
 * (`TEST_SHARED_DIR`): the cache key and the run's client bundle (bundle-seed.ts). Null when a runner
 * runs by itself.
 */
export function sharedTestDir(): string | null {
  return process.env.TEST_SHARED_DIR || null;
}
