import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import pLimit from 'p-limit';
import type { PageFailure } from './errors.ts';
import { prepareSiteFile, writeSiteFile } from './write.ts';
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
  const queue = (url: string): void => {
    copies.push(
      limit(async () => {
        const source = new URL(url, origin).href;
        try {
          const file = mediaFileFor(url);
          const cached = cacheDir ? await freshCopy(cacheDir, source, now()) : null;
          if (cached) {
            await copyFile(cached, await prepareSiteFile(siteDir, file));
            return;
          }
          const response = await fetchImpl(source, { signal: AbortSignal.timeout(30_000) });
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          const body = new Uint8Array(await response.arrayBuffer());
          await writeSiteFile(siteDir, file, body);
          if (cacheDir) await remember(cacheDir, source, body, maxAgeOf(response.headers.get('cache-control')), now());
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

function cacheFiles(cacheDir: string, source: string): { body: string; meta: string } {
  const key = createHash('sha256').update(source).digest('hex').slice(0, 32);
  return { body: join(cacheDir, 'media', key), meta: join(cacheDir, 'media', `${key}.json`) };
}

/** The cached file for `source` when it is still fresh, else null. */
async function freshCopy(cacheDir: string, source: string, now: number): Promise<string | null> {
  const files = cacheFiles(cacheDir, source);
  try {
    const meta = JSON.parse(await readFile(files.meta, 'utf8')) as { source: string; expires: number };
    return meta.source === source && meta.expires > now ? files.body : null;
  } catch {
    return null;
  }
}

async function remember(cacheDir: string, source: string, body: Uint8Array, maxAgeSeconds: number, now: number): Promise<void> {
  if (maxAgeSeconds <= 0) return;
  const files = cacheFiles(cacheDir, source);
  try {
    await mkdir(join(cacheDir, 'media'), { recursive: true });
    await writeFile(files.body, body);
    // The metadata goes last: a cache entry is used only once its body is complete.
    await writeFile(files.meta, JSON.stringify({ source, expires: now + maxAgeSeconds * 1000 }));
  } catch {
    // A cache that cannot be written only costs the next build a download.
  }
}
