import { createHash } from 'node:crypto';
import { copyFile, link, readdir, rm } from 'node:fs/promises';
import { join, posix } from 'node:path';
import pLimit from 'p-limit';
import type { PageFailure } from './errors.ts';
import { prepareSiteFile, writeFileAtomic, writeSiteFile } from './write.ts';
import { compareText } from '../runtime/shared/compare.ts';

export interface MediaCopier {
  /** Queues the media a page's (or the site's) JSON refers to; each URL is copied once per build. */
  addFrom(json: string): void;
  /** Every URL queued so far. */
  readonly urls: ReadonlySet<string>;
  /** Waits for every copy; returns the failures, one per URL. */
  done(): Promise<PageFailure[]>;
}

export interface MediaCopierOptions {
  /** The backend's origin, which media URLs are relative to. */
  origin: string;
  siteDir: string;
  concurrency: number;
  /**
   * Folder for downloaded media between builds. A file is taken from it without asking the backend
   * while the backend's `Cache-Control: max-age` says it is fresh, as any HTTP cache would.
   * @default no cache
   */
  cacheDir?: string;
  /** URLs the output already holds (an incremental build's previous output): counted, not copied. */
  present?: ReadonlySet<string>;
  fetchImpl?: typeof fetch;
  /** @default Date.now */
  now?: () => number;
}

/**
 * Downloads media from the backend into the site while pages are still being built, so the published
 * output is self-contained and the download overlaps rendering instead of adding to it.
 */
export function createMediaCopier({ origin, siteDir, concurrency, cacheDir, present, fetchImpl = fetch, now = Date.now }: MediaCopierOptions): MediaCopier {
  const limit = pLimit(concurrency);
  const urls = new Set<string>();
  const failures: PageFailure[] = [];
  const copies: Promise<void>[] = [];
  let cache: Promise<MediaCache> | null = null;
  const queue = (url: string): void => {
    copies.push(
      limit(async () => {
        const source = new URL(url, origin).href;
        try {
          const file = mediaFileFor(url);
          if (cacheDir) cache ??= openMediaCache(cacheDir);
          const cached = (await cache)?.fresh(source, now()) ?? null;
          if (cached) {
            await linkOrCopy(cached, await prepareSiteFile(siteDir, file));
            return;
          }
          const response = await fetchImpl(source, { signal: AbortSignal.timeout(30_000) });
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          const body = new Uint8Array(await response.arrayBuffer());
          await writeSiteFile(siteDir, file, body);
          const maxAge = maxAgeOf(response.headers.get('cache-control'));
          if (cache && maxAge > 0) await (await cache).remember(source, body, now() + maxAge * 1000);
        } catch (cause) {
          failures.push({ page: url, route: 'media', operation: 'GET ' + source, cause: (cause as Error).message, fix: 'Check that the backend serves this file, or remove the reference from the content.' });
        }
      }),
    );
  };
  return {
    addFrom(json) {
      for (const url of mediaUrlsIn(json)) {
        if (urls.has(url)) continue;
        urls.add(url);
        if (!present?.has(url)) queue(url);
      }
    },
    urls,
    async done() {
      await Promise.all(copies);
      return failures.sort((a, b) => compareText(a.page, b.page));
    },
  };
}

/**
 * The site file a media URL is copied to. An encoded slash or dot segment must not move a file out of
 * media/ (e.g. over the site's own scripts): such a URL throws.
 */
export function mediaFileFor(url: string): string {
  const file = posix.normalize(decodeURIComponent(url.slice(1)));
  if (!file.startsWith('media/')) throw new Error(`the media URL resolves outside media/ (${file})`);
  return file;
}

// --- internal ---

// In JSON a media URL is either a whole string ("/media/...") or an attribute inside HTML (=\"/media/...).
const MEDIA_URL = /"(\/media\/[^"\\?#]+)|\\"(\/media\/[^"\\?#]+)/g;

function* mediaUrlsIn(text: string): Generator<string> {
  // Most pages have no media: a plain search is much cheaper than the expression.
  if (!text.includes('/media/')) return;
  for (const m of text.matchAll(MEDIA_URL)) yield (m[1] ?? m[2])!;
}

/** Seconds a response may be reused by `Cache-Control`; 0 for no-store, no-cache or none given. */
export function maxAgeOf(cacheControl: string | null): number {
  if (!cacheControl || /\b(no-store|no-cache|private)\b/i.test(cacheControl)) return 0;
  const age = /\bmax-age=(\d+)/i.exec(cacheControl)?.[1];
  return age ? Number(age) : 0;
}

/**
 * The media cache folder, listed once per build. Each entry is one file named `{key}.{expires}`: the key
 * is a hash of the source URL and `expires` the time (ms) until which the backend said it is fresh. The
 * name alone answers "is it cached and fresh", so a build with thousands of media files reads one
 * folder instead of a metadata file per medium.
 */
interface MediaCache {
  /** The cached file for `source` when it is still fresh, else null. */
  fresh(source: string, now: number): string | null;
  remember(source: string, body: Uint8Array, expires: number): Promise<void>;
}

async function openMediaCache(cacheDir: string): Promise<MediaCache> {
  const dir = join(cacheDir, 'media');
  const entries = new Map<string, number>();
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const m = /^([0-9a-f]{32})\.(\d+)$/.exec(name);
    if (m && Number(m[2]) > (entries.get(m[1]!) ?? -1)) entries.set(m[1]!, Number(m[2]));
    // The format before 2026-11-23 (a body and a `.json` beside it) is never read again: let it go.
    else if (/^[0-9a-f]{32}(?:\.json)?$/.test(name)) void rm(join(dir, name), { force: true }).catch(() => undefined);
  }
  const fileFor = (key: string, expires: number): string => join(dir, `${key}.${expires}`);
  return {
    fresh(source, now) {
      const key = cacheKey(source);
      const expires = entries.get(key);
      return expires !== undefined && expires > now ? fileFor(key, expires) : null;
    },
    async remember(source, body, expires) {
      const key = cacheKey(source);
      const before = entries.get(key);
      const file = fileFor(key, expires);
      try {
        // Complete under its final name or not there at all: the name is what says the entry is usable.
        await writeFileAtomic(file, body);
        entries.set(key, expires);
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
async function linkOrCopy(cached: string, target: string): Promise<void> {
  try {
    await link(cached, target);
  } catch {
    await copyFile(cached, target);
  }
}

function cacheKey(source: string): string {
  return createHash('sha256').update(source).digest('hex').slice(0, 32);
}
