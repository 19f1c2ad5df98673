// Compiles the CLI and the site code it loads (cli/, runtime/, site/, backend/) to plain JavaScript once
// per version of the sources, so that `site` starts without a TypeScript loader: loading about 200
// modules through tsx's hooks took a second per command and about 80 MB of memory per build.
// npm packages stay external, but for the embedded backend's server stack (packagesExternal). Plain
// JavaScript, because it runs before anything can load TypeScript.
import { createHash, randomUUID } from 'node:crypto';
import { hashFiles } from '../cli/config/hash-files.js';
import { existsSync } from 'node:fs';
import { readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE_DIRS = ['cli', 'runtime', 'site', 'backend'];
const SOURCE_FILE = /\.(ts|tsx|js|mjs)$/;
// rollup.config.ts is compiled in too (cli/bundle/bundle.ts imports it): a change to the client build's
// configuration must reach the compiled command, or it bundles with the previous one.
const INPUT_FILES = [
  'tsconfig.json',
  'tsconfig.base.json',
  'package.json',
  'package-lock.json',
  'rollup.config.ts',
  'bin/compile-cli.js',
  // What is installed of the packages compiled in (BUNDLED_PACKAGES and what they import): npm's record
  // of the installed tree, and graphql-yoga's own package.json, so an install unlike the lock file
  // compiles them again.
  'node_modules/.package-lock.json',
  'node_modules/graphql-yoga/package.json',
];
/** Versions not started for this long are removed when a new one is compiled. */
const KEEP_MS = 60 * 60 * 1000;

/**
 * The folder holding `main.js` and the worker threads' entries (`render-thread.js`, `bundle-thread.js`) compiled from the current sources, compiled now
 * if it does not exist yet; null when they cannot be compiled (the caller runs the sources with tsx,
 * whose error names the file and line). Each version is kept under `node_modules/.cache/site-cli/`,
 * the folder tools keep their caches in.
 */
export async function compiledCli(root = PROJECT_ROOT, cacheDir = join(root, 'node_modules/.cache/site-cli')) {
  const version = await sourceVersion(root);
  const dir = join(cacheDir, version);
  if (existsSync(join(dir, 'main.js'))) {
    // Marks the version as in use, so that compiling another does not remove it.
    const now = new Date();
    await utimes(dir, now, now).catch(() => undefined);
    return dir;
  }
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    return null;
  }
  // Commands started at the same moment (tests, `site dev`) each compile into a folder of their own,
  // unique even within one process and one millisecond; the first rename wins and the others use its
  // files.
  const staging = `${dir}.${process.pid}-${randomUUID()}`;
  compiling++;
  try {
    await esbuild.build({
      entryPoints: {
        main: join(root, 'cli/main.ts'),
        'render-thread': join(root, 'cli/render/render-thread.ts'),
        'bundle-thread': join(root, 'cli/bundle/bundle-thread.ts'),
      },
      outdir: staging,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node24',
      jsx: 'automatic',
      // The CommonJS modules among the compiled packages require Node's own modules.
      banner: {
        js: "import { createRequire as __siteCreateRequire } from 'node:module'; const require = __siteCreateRequire(import.meta.url);",
      },
      sourcemap: 'linked',
      logLevel: 'silent',
      plugins: [packagesExternal, keepModuleUrls],
    });
    await rename(staging, dir).catch(async (error) => {
      if (!existsSync(join(dir, 'main.js'))) throw error;
    });
  } catch {
    return null;
  } finally {
    // esbuild's service process (about 60 MiB) would otherwise live as long as the command: through the
    // whole of a build that had to compile first, as every build of a fresh clone does. Stopped once no
    // other compile of this process is using it.
    if (--compiling === 0) await esbuild.stop();
    // Only this call writes into its staging folder, so nothing races this removal; a failure to
    // remove a leftover must not fail the command, which has its compiled files.
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
  }
  await removeOldVersions(cacheDir, version);
  return dir;
}

// --- internal ---

/** Compiles under way in this process, which share esbuild's service process. */
let compiling = 0;

/**
 * npm packages stay external (loaded from node_modules as they are), except the embedded backend's
 * server stack: graphql-yoga and what it imports are about 480 small module files (a build of the sample
 * opened 1,060 before, 577 since), whose resolving and loading cost every build with the embedded backend
 * about a quarter of a second of CPU (docs/performance.md). They are compiled
 * into the backend's chunk, loaded only when the backend starts; `graphql` itself stays external, so the
 * backend, graphql-yoga and the CLI share one copy (its classes are checked with instanceof).
 */
const BUNDLED_PACKAGES = /^graphql-yoga(\/|$)/;
const packagesExternal = {
  name: 'packages-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, ({ path, importer }) => {
      if (path.startsWith('node:')) return { path, external: true };
      const fromBundled = /[\\/]node_modules[\\/]/.test(importer);
      if (BUNDLED_PACKAGES.test(path) || (fromBundled && !/^graphql(\/|$)/.test(path))) return undefined;
      return { path, external: true };
    });
  },
};

/**
 * Every module keeps its own `import.meta.url`: the code finds files beside it (the project root, the
 * GraphQL schema, the page-write thread) as it does when run from the sources.
 */
const keepModuleUrls = {
  name: 'keep-module-urls',
  setup(build) {
    build.onLoad({ filter: SOURCE_FILE }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      const loader = path.endsWith('.tsx') ? 'tsx' : path.endsWith('.ts') ? 'ts' : 'js';
      return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href)), loader };
    });
  },
};

/**
 * A hash of every file in the source folders (code, and whatever it may import, such as JSON), of
 * what decides how they compile and which packages they import, and of where they are: the compiled
 * modules name their sources' absolute paths (keepModuleUrls), so the same sources in another folder
 * (another checkout sharing node_modules, a copy of the project) are another version, never the first
 * folder's files, which may since have changed or been removed.
 */
async function sourceVersion(root) {
  const files = await hashFiles(root, SOURCE_DIRS, INPUT_FILES);
  return createHash('sha256').update(resolve(root)).update('\0').update(files).digest('hex').slice(0, 16);
}

async function removeOldVersions(cacheDir, current) {
  const now = Date.now();
  for (const name of await readdir(cacheDir).catch(() => [])) {
    if (name === current) continue;
    const dir = join(cacheDir, name);
    const info = await stat(dir).catch(() => null);
    if (info && now - info.mtimeMs > KEEP_MS) await rm(dir, { recursive: true, force: true });
  }
}
