import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startContentServer } from '../../backend/server.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';
import { ROOT, runCli } from '../helpers/cli.ts';
import { useRunTempDir } from '../helpers/run-temp-dir.ts';

/**
 * Builds the site twice from the embedded backend with the real CLI: the site the tests serve, and
 * a second build of other inputs (another base URL, so another build id) that tests publish over
 * the first while a page is open. The site whose every image is a 4000×3000 camera photo, as editors
 * upload them, is built by images.spec.ts when it runs (`buildPhotoSite`): encoding them took seconds,
 * which every test waited for here while the browser tests leave a core mostly idle.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  // Every temporary folder of the run (these builds, the tests' own, Chromium's) goes in one, removed at the end.
  const removeTempDir = await useRunTempDir('site-e2e-run-');
  const root = await mkdtemp(join(tmpdir(), 'site-e2e-'));
  const site = join(root, 'site');
  const next = join(root, 'next');
  // The project's build cache gets the run's client bundle (tests/helpers/bundle-seed.ts: under `npm test`,
  // the one the unit run made; alone, made here), so both builds take it from there, side by side, and so
  // do the tests' builds, from their own caches seeded from it.
  await seedBundle(join(ROOT, '.site-cache'));
  process.env.TEST_BUNDLE_SEED = join(ROOT, '.site-cache', 'bundle');
  await Promise.all([build(['--out', site]), build(['--out', next, '--base-url', 'https://next.institute.example'])]);
  process.env.E2E_SITE_DIR = site;
  process.env.E2E_NEXT_SITE_DIR = next;
  return removeTempDir;
}

/**
 * Builds, into a new folder of the run's, the site whose every image is a camera photo (4000×3000 JPEGs
 * with GPS tags), from a backend of its own; returns the folder. The sample's images share two files per
 * kind of photo (landscape, a phone's sideways portrait, Display P3), as in tests/integration/images.test.ts:
 * every page shows photos as editors upload them, and the build encodes six of them, not twelve.
 */
export async function buildPhotoSite(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'site-e2e-photos-'));
  const photos = join(root, 'photos');
  const photoBackend = await startContentServer({ photos: { variants: 2 } });
  try {
    await build(['--out', photos, '--endpoint', photoBackend.url, '--cache-dir', await seedBundle(join(root, 'photos-cache'))]);
  } finally {
    await photoBackend.close();
  }
  return photos;
}

async function build(args: string[]): Promise<void> {
  const result = await runCli(['build', ...args, '--quiet']);
  if (result.code !== 0) throw new Error(`The e2e site build failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
}
