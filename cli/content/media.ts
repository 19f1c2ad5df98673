import { rm } from 'node:fs/promises';
import { posix } from 'node:path';
import pLimit from 'p-limit';
import type { PageFailure } from '../errors/errors.ts';
import { mediaList } from './page-depends.ts';
import { detach } from './detach.ts';
import { downloadMedia, MediaRefused, type DownloadPolicy } from './media-download.ts';
import { linkOrCopy, openMediaCache, type MediaCache } from './media-cache.ts';
import { createImagePipeline, type ImagePipeline } from './images/images.ts';
import { ImageRefused } from './images/image-codec.ts';
import type { ImageSettings } from './images/image-settings.ts';
import { parseDerivativeUrl } from './images/image-plan.ts';
import { DERIVATIVE_PREFIX } from '../../runtime/shared/images.ts';
import { sanitizeSvg, SVG_RULES_VERSION, SvgRefused } from './media-svg.ts';
import { mediaExtension, MEDIA_EXTENSIONS, refusedContentType, refusedExtension } from './media-types.ts';
import { prepareSiteFile, writeFileAtomic } from '../output/write.ts';
import { authorizationFor } from '../../runtime/shared/graphql.ts';
import { compareText } from '../../runtime/shared/compare.ts';

export interface MediaCopier {
  /**
   * Queues the media a page's (or the site's) JSON refers to; each URL is copied once per build. `page`
   * names the first page that refers to it in errors. Returns the page's URLs as one string
   * (page-depends.ts mediaList: '' for none, the build's one string of the URL for one).
   */
  addFrom(json: string, page?: string): string;
  /** Queues media URLs a page refers to, known without its JSON (a page kept unread from the previous build). */
  add(urls: readonly string[], page: string): void;
  /** Every URL queued so far. */
  readonly urls: ReadonlySet<string>;
  /** The media cache's entries this build took or kept (MediaCache.used); none without a cache. */
  cacheKeys(): Promise<readonly string[]>;
  /** Waits for every copy; returns the failures, one per URL. */
  done(): Promise<PageFailure[]>;
  /** Skips the copies not started yet and aborts those under way (the build failed, or needs no media); done() waits until they let go. */
  stop(): void;
  /** The raster images' pipeline (images/images.ts): resolves image fields and writes derivatives; null when images are copied as they are. */
  readonly images: ImagePipeline | null;
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
  /**
   * URLs the output already holds (an incremental build's previous output): counted, not copied. A
   * promise when that is known only later: the build starts copying before it knows whether it updates
   * in place, and each copy waits for the answer.
   */
  present?: ReadonlySet<string> | Promise<ReadonlySet<string> | undefined>;
  /** Milliseconds for one download attempt, body included. @default 30000 */
  timeoutMs?: number;
  /** Extra attempts for transient failures, as for GraphQL requests. @default 3 */
  retries?: number;
  /** Milliseconds before the first retry. @default 250 */
  retryDelayMs?: number;
  /** Largest media file in bytes (--media-max-bytes). @default DEFAULT_MEDIA_MAX_BYTES */
  maxBytes?: number;
  /** GRAPHQL_TOKEN: sent to the backend's own origin, where the media of drafts need it (--drafts). @default none */
  token?: string | null;
  fetchImpl?: typeof fetch;
  /** @default Date.now */
  now?: () => number;
  /** Derivatives of raster images (images/image-settings.ts); null: raster images are copied byte for byte. @default null */
  images?: ImageSettings | null;
  /**
   * What the cache names the backend by instead of its origin: the embedded sample backend listens on a
   * new port every build, while its files stay the same. @default the origin
   */
  cacheOrigin?: string;
}

/** The origin media-cache keys give the embedded sample backend (MediaCopierOptions.cacheOrigin). */
export const EMBEDDED_CACHE_ORIGIN = 'embedded-sample-backend:';

/** The build's options a media copier takes (a build's and `site dev`'s open pages' alike): ResolvedConfig's fields. */
export interface MediaConfig {
  readonly cacheDir: string;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryDelayMs: number;
  readonly mediaMaxBytes: number;
  readonly drafts: boolean;
  readonly token: string | null;
  readonly images: ImageSettings;
  readonly endpoint: string | null;
}

/** The copier's options that follow from the build's: the cache, timeouts and retries, size limit, the token (drafts only), images. */
export function mediaOptionsOf(
  config: MediaConfig,
): Pick<MediaCopierOptions, 'cacheDir' | 'timeoutMs' | 'retries' | 'retryDelayMs' | 'maxBytes' | 'token' | 'images' | 'cacheOrigin'> {
  return {
    cacheDir: config.cacheDir,
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    retryDelayMs: config.retryDelayMs,
    maxBytes: config.mediaMaxBytes,
    token: config.drafts ? config.token : null,
    images: config.images,
    cacheOrigin: config.endpoint === null ? EMBEDDED_CACHE_ORIGIN : undefined,
  };
}

/** The default --media-max-bytes: 100 MiB, more than any image, document or podcast episode needs. */
export const DEFAULT_MEDIA_MAX_BYTES = 100 * 1024 * 1024;

/**
 * Downloads media from the backend into the site while pages are still being built, so the published
 * output is self-contained and the download overlaps rendering instead of adding to it. Only media a
 * browser cannot run as a page are re-hosted (media-types.ts; SVG cleaned by media-svg.ts): any other
 * file fails the build, naming the page that refers to it, and the previous output stays as it was.
 */
export function createMediaCopier(options: MediaCopierOptions): MediaCopier {
  const { origin, siteDir, concurrency, cacheDir, present, now = Date.now } = options;
  const aborting = new AbortController();
  const policy: DownloadPolicy = {
    origin,
    timeoutMs: options.timeoutMs ?? 30_000,
    retries: options.retries ?? 3,
    retryDelayMs: options.retryDelayMs ?? 250,
    maxBytes: options.maxBytes ?? DEFAULT_MEDIA_MAX_BYTES,
    fetchImpl: options.fetchImpl,
    headers: options.token ? { authorization: authorizationFor(options.token) } : {},
    signal: aborting.signal,
  };
  const limit = pLimit(concurrency);
  const urls = new Set<string>();
  // Each URL's one string, which the pages' lists share.
  const canonical = new Map<string, string>();
  /** The files queued: two URLs that decode to one file (`a.png`, `%61.png`) are copied once. */
  const files = new Set<string>();
  const failures: PageFailure[] = [];
  const failedSources = new Set<string>();
  const copies: Promise<void>[] = [];
  let cache: Promise<MediaCache> | null = null;
  const cacheOf = (): Promise<MediaCache> | null => (cacheDir ? (cache ??= openMediaCache(cacheDir)) : null);
  /** The media-cache key of a source: what was fetched with the editor's token (--drafts) is cached apart. */
  const keyOf = (source: string, suffix = ''): string => {
    const named = options.cacheOrigin && source.startsWith(origin) ? options.cacheOrigin + source.slice(origin.length) : source;
    return `${named}${suffix}${options.token ? '#with-token' : ''}`;
  };
  const sourceLimit = pLimit(concurrency);
  const images = options.images
    ? createImagePipeline({
        settings: options.images,
        cacheDir: cacheDir ?? null,
        origin,
        // A source image comes from the media cache while fresh; otherwise it is downloaded, checked and cached.
        fetchSource: (url, temp, bypassCache) =>
          sourceLimit(async () => {
            const source = new URL(url, origin).href;
            const media = await cacheOf();
            const cached = bypassCache ? null : media?.fresh(keyOf(source), now());
            if (cached) return { file: cached, cached: true, verify: (digest: string) => media!.verify(cached, digest) };
            const file = await temp();
            const answer = await downloadMedia(source, file, policy);
            const wrongType = refusedContentType(mediaFileFor(url), answer.contentType);
            if (wrongType) throw new MediaRefused(wrongType);
            const maxAge = maxAgeOf(answer.cacheControl);
            if (media && maxAge > 0) {
              // The entry this download wrote, never another lookup: a cache that cannot be written must
              // not hand back what was planted under the same key.
              const kept = await media.remember(keyOf(source), file, now() + maxAge * 1000);
              if (kept) return { file: kept, cached: true, verify: (digest: string) => media.verify(kept, digest) };
            }
            return { file, cached: false };
          }),
      })
    : null;
  let stopped = false;
  let stopping!: () => void;
  const stoppedSignal = new Promise<undefined>((resolve) => (stopping = () => resolve(undefined)));
  // Whether the output holds the media already, or the copier stopped: one race for every copy. A race
  // per copy left a reaction on stoppedSignal, which never settles in a build that succeeds, for every
  // file: 29,000 of them at 100,000 pages, 9 MB held to the build's end.
  let presentOrStopped: Promise<ReadonlySet<string> | undefined> | undefined;
  const fail = (url: string, page: string, source: string, cause: string, fix: string): void => {
    failures.push({ page, route: 'media', operation: `GET ${source} (${url})`, cause, fix });
  };
  const queue = (url: string, page: string): void => {
    const source = new URL(url, origin).href;
    let file: string;
    try {
      file = mediaFileFor(url);
    } catch (cause) {
      fail(url, page, source, (cause as Error).message, 'Fix the file name in the content.');
      return;
    }
    // Paths under /media/_img/ are the build's own derivatives: one that is not written as the build
    // writes them (`/media/./_img/…`, an encoded slash) would put an editor's file in a derivative's place.
    if (`/${file}`.startsWith(DERIVATIVE_PREFIX) && (url !== `/${file}` || !parseDerivativeUrl(url))) {
      fail(
        url,
        page,
        source,
        `${url}: the path leads under ${DERIVATIVE_PREFIX}, which holds only the build's own image derivatives`,
        'Link to the image itself (its /media/ path as uploaded) instead.',
      );
      return;
    }
    const refused = refusedExtension(file);
    if (refused) {
      fail(url, page, source, `${url}: ${refused}`, REFUSED_TYPE_FIX);
      return;
    }
    if (files.has(file)) return;
    files.add(file);
    copies.push(
      limit(async () => {
        // A file an earlier build copied is checked (above) but not copied again.
        const held = await (presentOrStopped ??= Promise.race([present, stoppedSignal]));
        if (stopped || held?.has(url)) return;
        // Cleaned SVGs are cached under the cleaning rules' version: a cache entry is never an uncleaned file.
        // What was fetched with the editor's token (--drafts) is cached apart: a draft's medium never
        // serves a build without it.
        const key = keyOf(source, mediaExtension(file) === 'svg' ? `#svg-${SVG_RULES_VERSION}` : '');
        let target: string | null = null;
        try {
          if (images?.owns(file)) {
            // A derivative, or a raster original a page links to: made by the image pipeline, never copied as it came.
            target = await prepareSiteFile(siteDir, file);
            await images.write(url, target);
            return;
          }
          // A cached file is used only when its name's MAC covers its bytes: nothing planted in the cache (a
          // scripted SVG, a hard link to another file of the machine) reaches the output.
          const media = await cacheOf();
          const fresh = media?.fresh(key, now()) ?? null;
          const cached = fresh && (await media!.verify(fresh)) ? fresh : null;
          target = await prepareSiteFile(siteDir, file);
          // A cached file may have gone since the cache was listed (pruned beside this build): then it is downloaded.
          if (
            cached &&
            (await linkOrCopy(cached, target).then(
              () => true,
              (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? false : Promise.reject(error)),
            ))
          )
            return;
          // An SVG is read whole to be cleaned: it comes into memory, and only its cleaned text is written.
          const svg = mediaExtension(file) === 'svg';
          const answer = await downloadMedia(source, svg ? null : target, policy);
          const wrongType = refusedContentType(file, answer.contentType);
          if (wrongType) throw new MediaRefused(wrongType);
          if (svg) await writeFileAtomic(target, sanitizeSvg(answer.body!.toString('utf8')));
          const maxAge = maxAgeOf(answer.cacheControl);
          if (cache && maxAge > 0) await (await cache).remember(key, target, now() + maxAge * 1000);
        } catch (cause) {
          // Never fails itself (a folder where the file should be): the failure below is what counts.
          if (target) await rm(target, { force: true }).catch(() => undefined);
          const message = (cause as Error).message;
          if (cause instanceof ImageRefused) {
            // The derivatives of one source fail together: the source is named once.
            const named = cause.source ?? url;
            if (!failedSources.has(named)) fail(named, page, new URL(named, origin).href, `${named}: ${message}`, cause.fix);
            failedSources.add(named);
          } else if (cause instanceof SvgRefused)
            fail(
              url,
              page,
              source,
              `${url}: ${message}`,
              'Export the image again as a plain drawing (no scripts, styles, embedded HTML or links to other files), or upload it as PNG.',
            );
          else if (cause instanceof MediaRefused && /Content-Type/.test(message))
            fail(url, page, source, `${url}: ${message}`, REFUSED_TYPE_FIX);
          else if (cause instanceof MediaRefused && /media-max-bytes/.test(message))
            fail(url, page, source, `${url}: ${message}`, 'Shrink the file, or raise --media-max-bytes if it is meant to be this large.');
          else
            fail(
              url,
              page,
              source,
              `${url}: ${message}`,
              'Check that the backend serves this file, or remove the reference from the content.',
            );
        }
      }),
    );
  };
  /** A URL met for the first time: noted, and queued (a file an earlier build copied is checked again: an old output must not keep what is no longer allowed). */
  const admit = (url: string, page: string | undefined): string => {
    urls.add(url);
    canonical.set(url, url);
    queue(url, page ?? url);
    return url;
  };
  return {
    addFrom(json, page) {
      let found: string[] | undefined;
      for (const match of mediaUrlsIn(json)) {
        // Kept for the whole build: detached from the page's JSON, which the match is a view of.
        const url = canonical.get(match) ?? admit(detach(match), page);
        if (!found?.includes(url)) (found ??= []).push(url);
      }
      return found ? mediaList(found) : '';
    },
    images,
    add(list, page) {
      for (const url of list) if (!urls.has(url)) admit(url, page);
    },
    urls,
    async cacheKeys() {
      return cache ? [...(await cache).used] : [];
    },
    async done() {
      await Promise.all(copies);
      await images?.close();
      return failures.sort((a, b) => compareText(a.page, b.page));
    },
    stop() {
      stopped = true;
      stopping();
      aborting.abort();
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

const REFUSED_TYPE_FIX = `Upload the file in an allowed format (${MEDIA_EXTENSIONS.join(', ')}) with a matching Content-Type, or link to it where it is hosted rather than under /media/.`;

// In JSON a media URL is either a whole string ("/media/...") or an attribute inside HTML (=\"/media/...).
// A derivative (images/image-plan.ts) is matched by its own pattern wherever it stands: rich text lists
// several in one srcset attribute (`\"/media/_img/…-320.webp 320w, /media/_img/…-640.webp 640w\"`).
const MEDIA_URL =
  /(\/media\/_img\/[0-9a-f]{20}\/\d{1,5}\.(?:avif|webp|jpg|png))(?![^"\\\s,])|"(?!\/media\/_img\/)(\/media\/[^"\\?#]+)|\\"(?!\/media\/_img\/)(\/media\/[^"\\?#]+)/g;

/** The media URLs a page's (or the site's) JSON refers to, in order, repeats included. */
export function* mediaUrlsIn(text: string): Generator<string> {
  // Most pages have no media: a plain search is much cheaper than the expression.
  if (!text.includes('/media/')) return;
  for (const m of text.matchAll(MEDIA_URL)) yield (m[1] ?? m[2] ?? m[3])!;
}

/** Seconds a response may be reused by `Cache-Control`; 0 for no-store, no-cache or none given. */
export function maxAgeOf(cacheControl: string | null): number {
  if (!cacheControl || /\b(no-store|no-cache|private)\b/i.test(cacheControl)) return 0;
  const age = /\bmax-age=(\d+)/i.exec(cacheControl)?.[1];
  return age ? Number(age) : 0;
}
