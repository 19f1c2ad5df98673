import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';

/**
 * `name@version` of package `name` and of every package it depends on (with `optional`, optional
 * dependencies too: a binary's platform package), as installed where `from` would load them, sorted: what a cache of a package's results names, so that a new version of it (or of what
 * it uses) never serves results the old one made. A package that cannot be found is `name@unresolved`.
 */
export function installedPackages(name: string, from: string, { optional = false } = {}): string[] {
  const found = new Set<string>();
  const visit = (name: string, from: string): void => {
    const manifestPath = manifestOf(name, from);
    if (!manifestPath) {
      found.add(`${name}@unresolved`);
      return;
    }
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      version: string;
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    const id = `${name}@${manifest.version}`;
    if (found.has(id)) return;
    found.add(id);
    for (const dependency of Object.keys({ ...manifest.dependencies, ...(optional ? manifest.optionalDependencies : {}) }))
      visit(dependency, manifestPath);
  };
  visit(name, from);
  return [...found].sort();
}

/**
 * What says which packages are installed under `root` (paths relative to it): npm's record of the whole
 * installed tree (`node_modules/.package-lock.json`, rewritten by every install), and the package.json
 * of each dependency the project's package.json declares (also changed by hand or by a tool that skips
 * the record). A hash of the code includes them, so that an install unlike the lock file (a version bump,
 * `npm install x --no-save`, a stale node_modules) counts as other code. Used by the generator
 * fingerprint (build/generator-fingerprint.ts) and the client bundle's cache key (bundle/bundle-cache.ts).
 * A missing package.json names no dependency; one that does not parse fails, naming it.
 */
export function installedManifests(root: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(root, 'package.json'), 'utf8');
  } catch {
    return [INSTALLED_TREE];
  }
  let manifest: { dependencies?: Record<string, string> };
  try {
    manifest = JSON.parse(text) as typeof manifest;
  } catch (cause) {
    throw new SyntaxError(`${join(root, 'package.json')} is not valid JSON (${(cause as Error).message}): fix it, or run npm ci again.`, {
      cause,
    });
  }
  return [INSTALLED_TREE, ...Object.keys(manifest.dependencies ?? {}).map((name) => `node_modules/${name}/package.json`)];
}

/** npm's record of the installed tree (its "hidden lockfile"). */
const INSTALLED_TREE = 'node_modules/.package-lock.json';

// --- internal ---

/** The package.json of package `name` as `from` would load it, also when its exports hide the file. */
function manifestOf(name: string, from: string): string | null {
  const require = createRequire(from);
  try {
    return require.resolve(`${name}/package.json`);
  } catch {
    // Look up from its entry point for the folder named like the package.
  }
  try {
    let dir = dirname(require.resolve(name));
    while (!dir.endsWith(`${sep}node_modules${sep}${name.replaceAll('/', sep)}`) && dirname(dir) !== dir) dir = dirname(dir);
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'package.json');
  } catch {
    // A package with an `import` entry only: look for its folder as Node does.
  }
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(manifest)) return manifest;
    if (dirname(dir) === dir) return null;
  }
}
