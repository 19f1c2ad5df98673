import { createHash, timingSafeEqual } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { copyFile, link, lstat, mkdir, readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { cacheKeyFor } from '../config/cache-key.ts';
import { detach } from './detach.ts';
import { writeFileAtomic } from '../output/write.ts';

/**
 * The media cache folder, listed once per build. Each entry is one file named `{key}.{expires}`: the key
 * is a hash of the source URL and `expires` the time (ms) until which the backend said it is fresh. The
 * name alone answers "is it cached and fresh", so a build with thousands of media files reads one
 * folder instead of a metadata file per medium.
 */
export interface MediaCache {
  /** The cached file for `source` when it is still fresh, else null. Its bytes are not checked: see verify. */
  fresh(source: string, now: number): string | null;
  /**
   * Whether a file fresh() gave is what this cache wrote under that name: its name carries a MAC, under
   * the build cache's key, of its key, its expiry and the SHA-256 of its bytes (`digest`, computed from
   * the file when not given). A file planted in the cache, a link to another file included, fails.
   */
  verify(file: string, digest?: string): Promise<boolean>;
  /** Keeps a copy (a hard link where possible) of `file` as the entry for `source`; the entry's path, or null when it could not be written. */
  remember(source: string, file: string, expires: number): Promise<string | null>;
  /** The keys of the entries this build took or kept (the `{key}` of their names): what its state refers to (build/cache-kinds.ts). */
  readonly used: ReadonlySet<string>;
}

export async function openMediaCache(cacheDir: string): Promise<MediaCache> {
  const dir = join(cacheDir, 'media');
  await mkdir(dir, { recursive: true }).catch(() => undefined);
  const signing = cacheKeyFor(cacheDir);
  const macOf = (key: string, expires: number, digest: string): string =>
    signing.sign('media', key, String(expires), digest).toString('hex').slice(0, 32);
  const entries = new Map<string, { expires: number; mac: string }>();
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const name = entry.name;
    const m = MEDIA_ENTRY.exec(name);
    // Only plain files are entries: a symbolic link planted in the cache would publish whatever it names.
    if (m && !entry.isFile()) continue;
    // The key detached from the file name, which the match is a view of (2.8 MB of names at 29,000 media).
    if (m && Number(m[2]) > (entries.get(m[1]!)?.expires ?? -1)) entries.set(detach(m[1]!), { expires: Number(m[2]), mac: detach(m[3]!) });
    // The formats before 2026-11-28 (unsigned names; a body and a `.json` beside it) are never read again: let them go.
    else if (/^[0-9a-f]{32}(?:\.json|\.\d+)?$/.test(name)) void rm(join(dir, name), { force: true }).catch(() => undefined);
  }
  const fileFor = (key: string, expires: number, mac: string): string => join(dir, `${key}.${expires}.${mac}`);
  const used = new Set<string>();
  const verified = new Map<string, Promise<boolean>>();
  return {
    used,
    fresh(source, now) {
      const key = cacheKey(source);
      const entry = entries.get(key);
      if (entry === undefined || entry.expires <= now) return null;
      used.add(key);
      return fileFor(key, entry.expires, entry.mac);
    },
    verify(file, digest) {
      const check = async (): Promise<boolean> => {
        const m = MEDIA_ENTRY.exec(basename(file));
        if (
          !m ||
          !(await lstat(file).then(
            (s) => s.isFile(),
            () => false,
          ))
        )
          return false;
        const mac = macOf(m[1]!, Number(m[2]), digest ?? (await sha256Of(file)));
        return timingSafeEqual(Buffer.from(mac), Buffer.from(m[3]!));
      };
      if (digest !== undefined) return check();
      let answer = verified.get(file);
      if (!answer) verified.set(file, (answer = check().catch(() => false)));
      return answer;
    },
    async remember(source, from, expires) {
      const key = cacheKey(source);
      const before = entries.get(key);
      try {
        const mac = macOf(key, expires, await sha256Of(from));
        const file = fileFor(key, expires, mac);
        // Complete under its final name or not there at all: the name is what says the entry is usable.
        // A hard link is made whole in one step; otherwise (the cache on another file system, an entry of
        // that name already there) through a temporary file that replaces it.
        await link(from, file).catch(() => writeFileAtomic(file, (temp) => linkOrCopy(from, temp)));
        entries.set(key, { expires, mac });
        used.add(key);
        if (before !== undefined && (before.expires !== expires || before.mac !== mac))
          await rm(fileFor(key, before.expires, before.mac), { force: true });
        return file;
      } catch {
        // A cache that cannot be written only costs the next build a download.
        return null;
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

/** A media-cache entry's name: `{key}.{expires}.{mac}`. */
const MEDIA_ENTRY = /^([0-9a-f]{32})\.(\d+)\.([0-9a-f]{32})$/;

/** The SHA-256 of a file's bytes, hex. */
export function sha256Of(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

function cacheKey(source: string): string {
  return createHash('sha256').update(source).digest('hex').slice(0, 32);
}
