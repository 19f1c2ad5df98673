// Plain JavaScript: bin/compile-cli.js hashes the sources with it before anything can load TypeScript,
// and the build (generator-fingerprint.ts, bundle-cache.ts) uses the same function.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * A hash of the names and contents of `files` and of every file under `dirs` (paths relative to
 * `root`; a missing one counts as empty): the version of the code they hold. It runs up to three times
 * at every start of the command, over about 300 small files, so it reads them synchronously: the
 * promise API's round trips per file took 50-60 ms of CPU a call, synchronous reads 20-30 ms.
 *
 * A process that asks again and again (`site live` asks three times an update: its own check for new
 * code, the build's generator and the bundle's inputs) reads the files again only when one of them is
 * not as it was the last time (remembered): its identity, size, and times of change to the nanosecond.
 * The stamps are taken from a set's second ask on (2-5 ms for 330 files), and not kept while a file is
 * younger than the file system's clock can tell apart (stampsOf).
 */
export async function hashFiles(root, dirs, files) {
  const names = [...files];
  for (const dir of dirs) {
    for (const entry of orNone(() => readdirSync(join(root, dir), { recursive: true, withFileTypes: true }), [])) {
      if (entry.isFile()) names.push(relative(root, join(entry.parentPath, entry.name)));
    }
  }
  names.sort();
  const key = JSON.stringify([root, dirs, files]);
  const seen = remembered.get(key);
  // Stamped from the second ask on: a command that asks once (nearly every one) does not pay for it.
  const stamps = seen ? stampsOf(root, names) : null;
  if (stamps !== null && seen.stamps === stamps.text) return seen.hash;
  const hash = createHash('sha256');
  for (const name of names)
    hash
      .update(name)
      .update('\0')
      .update(orNone(() => readFileSync(join(root, name)), ''))
      .update('\0');
  const digest = hash.digest('hex').slice(0, 16);
  remembered.set(key, { stamps: stamps?.racy === false ? stamps.text : null, hash: digest });
  return digest;
}

/** The last hash of each set of files asked for, with the stamps of the files it was read from (null: not taken, at the first ask or while racy). */
const remembered = new Map();

/**
 * The stamps of the files: what changes when a file is written, replaced or removed (its device and
 * inode, size, and modification and change times in nanoseconds). `racy` when a file changed within
 * RACY_MS of now: a file system's clock may tick as coarsely as that (1 s on HFS+, 2 s on FAT, a few ms on
 * older Linux kernels), so another write of the same size could still leave the same stamp; such stamps
 * are not remembered, and the files are read again next time (git's "racy clean" rule).
 */
function stampsOf(root, names) {
  const since = BigInt(Date.now() - RACY_MS) * 1_000_000n;
  let racy = false;
  const text = names
    .map((name) => {
      const info = orNone(() => statSync(join(root, name), { bigint: true, throwIfNoEntry: false }), undefined);
      if (info === undefined) return `${name}\0none`;
      if (info.mtimeNs >= since || info.ctimeNs >= since) racy = true;
      return `${name}\0${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
    })
    .join('\n');
  return { text, racy };
}

const RACY_MS = 2000;

function orNone(read, none) {
  try {
    return read();
  } catch {
    return none;
  }
}
