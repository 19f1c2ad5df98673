import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './write.ts';

/**
 * The site search's partitions kept in the build cache (`{cacheDir}/search/`), by their key: a full build,
 * which has no previous index to keep partitions from, takes there the files of each partition whose key
 * (its pages' documents, the options, Pagefind's version: cli/output/search-index.ts) a build met before,
 * instead of having Pagefind index its pages again. An entry is one file: a header naming each file and
 * its size, the files' bytes, and their hash, which a read checks, so a damaged entry is built again.
 * Written whole under its final name or not at all (writeFileAtomic). The I/O edge of search-index.ts.
 */

/** One file of a partition, relative to the site root. */
export interface CachedFile {
  file: string;
  content: Uint8Array;
}

export interface SearchCache {
  /** The entry's files, or null when it is missing, damaged or unreadable. */
  get(key: string): Promise<CachedFile[] | null>;
  /** Keeps `files` as the entry for `key`; a cache that cannot be written only costs the next build the indexing. */
  put(key: string, files: readonly CachedFile[]): Promise<void>;
  /**
   * Forgets entries this process neither read nor wrote, but the `others` used last (another output
   * folder's, say, built from the same cache): the cache holds about as much as the indexes it serves.
   */
  prune(others: number): Promise<void>;
}

export function openSearchCache(cacheDir: string): SearchCache {
  const dir = join(cacheDir, 'search');
  const used = new Set<string>();
  const fileFor = (key: string): string => join(dir, `${key}${SUFFIX}`);
  return {
    async get(key) {
      const file = fileFor(key);
      const entry = await readFile(file).catch(() => null);
      const files = entry && unpack(entry);
      if (!files) return null;
      used.add(key);
      // Its time says when a build last used it, for prune.
      const now = new Date();
      await utimes(file, now, now).catch(() => undefined);
      return files;
    },
    async put(key, files) {
      used.add(key);
      await writeFileAtomic(fileFor(key), pack(files)).catch(() => undefined);
    },
    async prune(others) {
      const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => ENTRY.test(name) && !used.has(name.slice(0, -SUFFIX.length)));
      const dated = await Promise.all(names.map(async (name) => ({ name, time: (await stat(join(dir, name)).catch(() => null))?.mtimeMs ?? 0 })));
      dated.sort((a, b) => b.time - a.time);
      await Promise.all(dated.slice(others).map(({ name }) => rm(join(dir, name), { force: true }).catch(() => undefined)));
    },
  };
}

// --- internal ---

const SUFFIX = '.pagefind';

/** An entry's name: its key (base64url SHA-256) and the suffix; temporary files and anything else are left alone. */
const ENTRY = /^[A-Za-z0-9_-]{43}\.pagefind$/;

interface Header {
  files: [name: string, size: number][];
  /** SHA-256 of the files' bytes, one after the other. */
  hash: string;
}

function pack(files: readonly CachedFile[]): Uint8Array {
  const body = Buffer.concat(files.map((f) => f.content));
  const header = Buffer.from(JSON.stringify({ files: files.map((f) => [f.file, f.content.length]), hash: sha256(body) } satisfies Header));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  return Buffer.concat([length, header, body]);
}

function unpack(entry: Buffer): CachedFile[] | null {
  try {
    const length = entry.readUInt32BE(0);
    const header = JSON.parse(entry.subarray(4, 4 + length).toString('utf8')) as Header;
    const body = entry.subarray(4 + length);
    if (!Array.isArray(header.files) || sha256(body) !== header.hash) return null;
    const files: CachedFile[] = [];
    let at = 0;
    for (const [file, size] of header.files) {
      if (typeof file !== 'string' || !Number.isInteger(size) || size < 0 || at + size > body.length) return null;
      files.push({ file, content: new Uint8Array(body.subarray(at, at + size)) });
      at += size;
    }
    return at === body.length ? files : null;
  } catch {
    return null;
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64url');
}
