// Plain JavaScript: bin/compile-cli.js hashes the sources with it before anything can load TypeScript,
// and the build (generator-fingerprint.ts, bundle-cache.ts) uses the same function.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * A hash of the names and contents of `files` and of every file under `dirs` (paths relative to
 * `root`; a missing one counts as empty): the version of the code they hold. It runs up to three times
 * at every start of the command, over about 300 small files, so it reads them synchronously: the
 * promise API's round trips per file took 50-60 ms of CPU a call, synchronous reads 20-30 ms.
 */
export async function hashFiles(root, dirs, files) {
  const names = [...files];
  for (const dir of dirs) {
    for (const entry of orNone(() => readdirSync(join(root, dir), { recursive: true, withFileTypes: true }), [])) {
      if (entry.isFile()) names.push(relative(root, join(entry.parentPath, entry.name)));
    }
  }
  names.sort();
  const hash = createHash('sha256');
  for (const name of names)
    hash
      .update(name)
      .update('\0')
      .update(orNone(() => readFileSync(join(root, name)), ''))
      .update('\0');
  return hash.digest('hex').slice(0, 16);
}

function orNone(read, none) {
  try {
    return read();
  } catch {
    return none;
  }
}
