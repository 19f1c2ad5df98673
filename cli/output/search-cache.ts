import { constants } from 'node:fs';
import { lstat, lutimes, open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheKeyFor, type CacheKey } from '../config/cache-key.ts';
import { writeFileAtomic } from './write.ts';

/**
 * The site search's partitions kept in the build cache (`{cacheDir}/search/`), by their key: a full build,
 * which has no previous index to keep partitions from, takes there the files of each partition whose key
 * (its pages' documents, the options, Pagefind's version: cli/output/search-index.ts) a build met before,
 * instead of having Pagefind index its pages again. An entry is one file: a header naming its key and each
 * file with its size, then the files' bytes; an HMAC over all of it under the build cache's key
 * (cli/config/cache-key.ts), which a read checks. Partition 0 holds Pagefind's JavaScript and WebAssembly,
 * which run on the site, and every partition the fragments the search page shows: a checksum anyone can
 * recompute would let whoever writes the cache ship script, so a damaged entry, one copied under another
 * key's name, and one no build holding the key wrote are all built again. Written whole under its final
 * name or not at all (writeFileAtomic). The I/O edge of search-index.ts: what it reads here, it checks
 * before use.
 */

/** One file of a partition, relative to the site root. */
export interface CachedFile {
  file: string;
  content: Uint8Array;
}

export interface SearchCache {
  /** The entry's files, or null when it is missing, damaged, not a plain file or unreadable. */
  get(key: string): Promise<CachedFile[] | null>;
  /** Keeps `files` as the entry for `key`; a cache that cannot be written only costs a later build the indexing. */
  put(key: string, files: readonly CachedFile[]): Promise<void>;
  /**
   * Marks the entry for `key` used, when there is one (a partition an update in place kept). Never writes
   * one: what an update in place keeps was not made by this build, so it is not vouched for.
   */
  keep(key: string): Promise<void>;
  /**
   * Forgets the entries no build used for MAX_AGE_MS, and past MAX_BYTES (at least twice what this build
   * used) the oldest others: the cache serves several output folders (a drafts folder, `site dev`'s), each
   * keeping its own entries fresh. Temporary files a stopped build left go too.
   */
  prune(now?: number): Promise<void>;
  /** The keys of the entries this build read, wrote or kept: what its state refers to (build/cache-kinds.ts). */
  usedKeys(): string[];
}

export function openSearchCache(
  cacheDir: string,
  { maxBytes = MAX_BYTES, signer = cacheKeyFor(cacheDir) }: { maxBytes?: number; signer?: CacheKey } = {},
): SearchCache {
  const dir = join(cacheDir, 'search');
  const used = new Map<string, number>();
  const fileFor = (key: string): string => join(dir, `${key}${SUFFIX}`);
  // The entry itself, never what a link named like it points to.
  const touch = async (key: string): Promise<void> => {
    const now = new Date();
    await lutimes(fileFor(key), now, now).catch(() => undefined);
  };
  return {
    usedKeys: () => [...used.keys()],
    async get(key) {
      const entry = await readEntry(fileFor(key));
      const files = entry && unpack(entry, key, signer);
      if (!files) return null;
      used.set(key, entry.length);
      // Its time says when a build last used it, for prune.
      await touch(key);
      return files;
    },
    async put(key, files) {
      const entry = pack(key, files, signer);
      used.set(key, entry.length);
      // One no build could read is not written.
      if (entry.length <= MAX_ENTRY_BYTES) await writeFileAtomic(fileFor(key), entry).catch(() => undefined);
    },
    async keep(key) {
      const info = await lstat(fileFor(key)).catch(() => null);
      if (!info?.isFile()) return;
      used.set(key, info.size);
      await touch(key);
    },
    async prune(now = Date.now()) {
      const names = await readdir(dir).catch(() => [] as string[]);
      const others: { name: string; time: number; size: number }[] = [];
      for (const name of names) {
        const info = await lstat(join(dir, name)).catch(() => null);
        if (!info) continue;
        const key = ENTRY.exec(name)?.[1];
        if (key === undefined) {
          // A temporary file of a build that stopped mid-write (a write in progress is younger).
          if (name.endsWith('.tmp') && now - info.mtimeMs > STALE_TEMP_MS)
            await rm(join(dir, name), { force: true }).catch(() => undefined);
        } else if (!used.has(key)) others.push({ name, time: info.mtimeMs, size: info.size });
      }
      others.sort((a, b) => b.time - a.time);
      let bytes = [...used.values()].reduce((sum, n) => sum + n, 0);
      const budget = Math.max(maxBytes, 2 * bytes);
      for (const entry of others) {
        bytes += entry.size;
        if (now - entry.time > MAX_AGE_MS || bytes > budget) await rm(join(dir, entry.name), { force: true }).catch(() => undefined);
      }
    },
  };
}

// --- internal ---

const SUFFIX = '.pagefind';

/** An entry's name: its key (base64url SHA-256) and the suffix; anything else is left alone. */
const ENTRY = /^([A-Za-z0-9_-]{43})\.pagefind$/;

/** An entry no build used for this long is forgotten. */
const MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;

/** What the cache holds besides this build's entries, at most (more when this build's own need more). */
const MAX_BYTES = 256 * 1024 * 1024;

/** A temporary file older than this is a stopped build's. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/** The largest entry read: a partition of a few thousand pages is a few MiB. */
const MAX_ENTRY_BYTES = 256 * 1024 * 1024;

/** Bumped when an entry's layout changes. */
const FORMAT = 'site-search-cache/2';

interface Header {
  format: string;
  key: string;
  files: [name: string, size: number][];
}

/** The entry's bytes: a plain file only (no link followed, no FIFO or device waited on), and not past the cap. */
async function readEntry(file: string): Promise<Buffer | null> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => null);
  if (!handle) return null;
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > MAX_ENTRY_BYTES) return null;
    return await handle.readFile();
  } catch {
    return null;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** [header length][header][files' bytes][HMAC-SHA256 under the cache key of all that came before, 32 bytes]. */
function pack(key: string, files: readonly CachedFile[], signer: CacheKey): Buffer {
  const header = Buffer.from(JSON.stringify({ format: FORMAT, key, files: files.map((f) => [f.file, f.content.length]) } satisfies Header));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  const body = Buffer.concat([length, header, ...files.map((f) => f.content)]);
  return Buffer.concat([body, signer.sign(FORMAT, body)]);
}

function unpack(entry: Buffer, key: string, signer: CacheKey): CachedFile[] | null {
  try {
    if (entry.length < 36) return null;
    const body = entry.subarray(0, entry.length - 32);
    if (!signer.verify(entry.subarray(entry.length - 32), FORMAT, body)) return null;
    const length = body.readUInt32BE(0);
    const header = JSON.parse(body.subarray(4, 4 + length).toString('utf8')) as Header;
    if (header.format !== FORMAT || header.key !== key || !Array.isArray(header.files)) return null;
    const files: CachedFile[] = [];
    let at = 4 + length;
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
