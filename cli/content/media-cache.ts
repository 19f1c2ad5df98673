import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, link, lstat, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { detach } from './detach.ts';
import { writeFileAtomic } from '../output/write.ts';

/**
 * The media cache folder, listed once per build. Each entry is one file named `{key}.{expires}`: the key
 * is a hash of the source URL and `expires` the time (ms) until which the backend said it is fresh. The
 * name alone answers "is it cached and fresh", so a build with thousands of media files reads one
 * folder instead of a metadata file per medium.
 */
export interface MediaCache {
  /** The cached file for `source` when it is still fresh, else null. */
  fresh(source: string, now: number): string | null;
  /** Keeps a copy (a hard link where possible) of `file` as the entry for `source`. */
  remember(source: string, file: string, expires: number): Promise<void>;
  /** The keys of the entries this build took or kept (the `{key}` of their names): what its state refers to (build/cache-kinds.ts). */
  readonly used: ReadonlySet<string>;
}

export async function openMediaCache(cacheDir: string): Promise<MediaCache> {
  const dir = join(cacheDir, 'media');
  await mkdir(dir, { recursive: true }).catch(() => undefined);
  const entries = new Map<string, number>();
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const name = entry.name;
    const m = /^([0-9a-f]{32})\.(\d+)$/.exec(name);
    // Only plain files are entries: a link planted in the cache would publish whatever it points to.
    if (m && !entry.isFile()) continue;
    // The key detached from the file name, which the match is a view of (2.8 MB of names at 29,000 media).
    if (m && Number(m[2]) > (entries.get(m[1]!) ?? -1)) entries.set(detach(m[1]!), Number(m[2]));
    // The format before 2026-11-23 (a body and a `.json` beside it) is never read again: let it go.
    else if (/^[0-9a-f]{32}(?:\.json)?$/.test(name)) void rm(join(dir, name), { force: true }).catch(() => undefined);
  }
  const fileFor = (key: string, expires: number): string => join(dir, `${key}.${expires}`);
  const used = new Set<string>();
  return {
    used,
    fresh(source, now) {
      const key = cacheKey(source);
      const expires = entries.get(key);
      if (expires === undefined || expires <= now) return null;
      used.add(key);
      return fileFor(key, expires);
    },
    async remember(source, from, expires) {
      const key = cacheKey(source);
      const before = entries.get(key);
      const file = fileFor(key, expires);
      try {
        // Complete under its final name or not there at all: the name is what says the entry is usable.
        // A hard link is made whole in one step; otherwise (the cache on another file system, an entry of
        // that name already there) through a temporary file that replaces it.
        await link(from, file).catch(() => writeFileAtomic(file, (temp) => linkOrCopy(from, temp)));
        entries.set(key, expires);
        used.add(key);
        if (before !== undefined && before !== expires) await rm(fileFor(key, before), { force: true });
      } catch {
        // A cache that cannot be written only costs the next build a download.
      }
    },
  };
}

/**
 * Puts a cached file into the output as a hard link where the file system allows (the cache and the
 * output on one file system): no bytes copied, a third of the CPU time of a copy. Safe because the cache
 * never changes a file in place: a fresh download is a new file under a new name. Elsewhere, a copy.
 */
export async function linkOrCopy(cached: string, target: string): Promise<void> {
  // A cache entry is a plain file the build wrote: a symbolic link (or a FIFO, a device) planted in the
  // cache would put whatever it names into the output, or hang the build. Such an entry is no entry.
  const kind = await lstat(cached);
  if (!kind.isFile()) throw Object.assign(new Error(`${cached} is not a plain file`), { code: 'ENOENT' });
  try {
    await link(cached, target);
  } catch {
    // Never into a file already there: it may be another cache entry's, through a hard link.
    await copyFile(cached, target, constants.COPYFILE_EXCL);
  }
}

function cacheKey(source: string): string {
  return createHash('sha256').update(source).digest('hex').slice(0, 32);
}
