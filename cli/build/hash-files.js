// Plain JavaScript: bin/compile-cli.js hashes the sources with it before anything can load TypeScript,
// and the build (generator-fingerprint.ts, bundle-cache.ts) uses the same function.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * A hash of the names and contents of `files` and of every file under `dirs` (paths relative to
 * `root`; a missing one counts as empty): the version of the code they hold. Read together, since it
 * runs at every start of the command, and for the client bundle while the crawl keeps the thread busy.
 */
export async function hashFiles(root, dirs, files) {
  const names = [...files];
  for (const dir of dirs) {
    const entries = await readdir(join(root, dir), { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.isFile()) names.push(relative(root, join(entry.parentPath, entry.name)));
    }
  }
  names.sort();
  const contents = await Promise.all(names.map((name) => readFile(join(root, name)).catch(() => '')));
  const hash = createHash('sha256');
  names.forEach((name, i) => hash.update(name).update('\0').update(contents[i]).update('\0'));
  return hash.digest('hex').slice(0, 16);
}
