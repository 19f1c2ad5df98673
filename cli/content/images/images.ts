import { createHash, randomBytes } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import pLimit from 'p-limit';
import type { ResolvedImageFields } from '../../../runtime/shared/images.ts';
import { DERIVATIVE_PREFIX } from '../../../runtime/shared/images.ts';
import { writeFileAtomic } from '../../output/write.ts';
import { cacheKeyFor, type CacheKey } from '../../config/cache-key.ts';
import { linkOrCopy, sha256Of } from '../media-cache.ts';
import { cleanOriginal, codecVersion, encodeDerivatives, ImageRefused, isRasterExtension, probeImage } from './image-codec.ts';
import { parseDerivativeUrl, planDerivatives, resolvedFields, type DerivativePlan, type ProbedImage } from './image-plan.ts';
import { ENCODER_OPTIONS, type ImageSettings } from './image-settings.ts';
import { imgproxyFields } from './imgproxy.ts';

/**
 * The build's images (docs/site-authoring.md#images): every raster image a page shows is read once,
 * resolved into the fields its page data carries (real size, srcset per format, a fallback that is also
 * the social card), and encoded into those derivatives once per build, or never when the build cache
 * holds them. Derivatives are content-addressed: the key is a hash of the source's bytes, the settings
 * and the encoder's version, so two builds, two shards or two machines make the same files under the
 * same names, and a cache entry is never stale.
 */
export interface ImagePipeline {
  /** The fields of the image at the media URL `url` (`/media/…`); throws ImageRefused or a download's error. */
  resolve(url: string): Promise<ResolvedImageFields>;
  /** Whether the site file (`media/…`) is the pipeline's to write: a derivative, or a raster original. */
  owns(file: string): boolean;
  /** Writes the derivative or cleaned original at `url` to `target`. */
  write(url: string, target: string): Promise<void>;
  /** Sources resolved, and how many had their derivatives encoded by this build or taken from the cache. */
  counts(): { sources: number; encoded: number; cached: number };
  /** Saves what the next build reads (probes) and removes downloads the cache does not keep. */
  close(): Promise<void>;
}

export interface ImagePipelineOptions {
  settings: ImageSettings;
  /** The build cache folder; null: nothing kept between builds. */
  cacheDir: string | null;
  /**
   * Puts the source at the media URL into a local file and returns its path, and whether the file is a
   * media-cache entry (immutable, so its probe can be kept under its name).
   */
  fetchSource(
    url: string,
    temp: () => Promise<string>,
    bypassCache?: boolean,
  ): Promise<{ file: string; cached: boolean; verify?: (digest: string) => Promise<boolean> }>;
  /** The backend's origin, for an image service's source URLs. */
  origin: string;
  /** Sources decoded at once. @default 2 */
  concurrency?: number;
}

export function createImagePipeline(options: ImagePipelineOptions): ImagePipeline {
  const { settings, cacheDir } = options;
  const encodeLimit = pLimit(options.concurrency ?? 2);
  // A probe decodes every pixel (at an eighth of the size for JPEG; a GIF or PNG whole, up to several
  // hundred megabytes at the pixel limit): two at a time, as many as the encodes.
  const probeLimit = pLimit(2);
  const resolved = new Map<string, Promise<ResolvedImageFields>>();
  /** Per key: the source file and what was read of it, for the derivatives' encoding. */
  const sources = new Map<string, { url: string; file: string; image: ProbedImage; plan: DerivativePlan; digest: string }>();
  const byUrl = new Map<string, { file: string; image: ProbedImage; digest: string }>();
  const encodings = new Map<string, Promise<{ dir: string; names: ReadonlySet<string> } | Map<string, Buffer>>>();
  const counts = { sources: 0, encoded: 0, cached: 0 };
  const imagesDir = cacheDir ? join(cacheDir, 'images') : null;
  const signing = cacheDir ? cacheKeyFor(cacheDir) : null;
  let probes: Promise<ProbeMemo> | undefined;
  let tempDir: Promise<string> | undefined;
  let settingsDigest: Promise<string> | undefined;
  const temp = async (): Promise<string> => join(await (tempDir ??= makeTempDir(imagesDir)), randomBytes(8).toString('hex'));

  const resolveNow = async (url: string): Promise<ResolvedImageFields> => {
    const ext = posix.extname(url).slice(1).toLowerCase();
    const first = await options.fetchSource(url, temp);
    let { file, cached } = first;
    const memo = await (probes ??= loadProbeMemo(imagesDir));
    // A cached source is what the cache wrote under that name (its MAC covers the bytes' digest), or it
    // is fetched again: a file planted in the cache is never read as the image.
    let known = cached ? memo.get(posix.basename(file)) : undefined;
    // A memo entry is believed only when a build holding the cache key wrote it (its values are signed
    // with the entry's name), and the name's own MAC covers its digest. The file's bytes are not read
    // here: whatever is read of them later (an encode, a cleaned original) is hashed against the digest.
    if (
      known &&
      (known.ext !== ext || !signing || !memoSigned(signing, posix.basename(file), known) || !(await first.verify?.(known.digest)))
    )
      known = undefined;
    if (!known) {
      let digest = await sha256Of(file);
      if (cached && !(await first.verify?.(digest))) {
        const again = await options.fetchSource(url, temp, true);
        ({ file, cached } = again);
        digest = await sha256Of(file);
        if (cached && !(await again.verify?.(digest)))
          throw new ImageRefused(`the build cache's copy of ${url} does not verify`, BAD_CACHE_FIX);
      }
      const image = await probeLimit(() => probeImage(file, ext, settings.maxPixels));
      known = { ext, digest, image, mac: signing ? memoMac(signing, posix.basename(file), { ext, digest, image }) : '' };
      if (cached) memo.set(posix.basename(file), known);
    }
    // A memo entry is checked against today's limit too: a lowered limit must not let an old probe pass.
    const image = known.image;
    if (image.width * image.height > settings.maxPixels) await probeImage(file, ext, settings.maxPixels);
    byUrl.set(url, { file, image, digest: known.digest });
    counts.sources++;
    if (settings.service) return imgproxyFields(settings.service, new URL(url, options.origin).href, image, settings);
    const key = createHash('sha256')
      .update(await (settingsDigest ??= digestOfSettings(settings)))
      .update(known.digest)
      .digest('hex')
      .slice(0, 20);
    const plan = planDerivatives(key, image, settings);
    if (!sources.has(key)) sources.set(key, { url, file, image, plan, digest: known.digest });
    return resolvedFields(plan, image);
  };

  /** The folder (in the cache) or the files (no cache) of a key's derivatives, encoded once per build. */
  const derivativesOfKey = (key: string): Promise<{ dir: string; names: ReadonlySet<string> } | Map<string, Buffer>> => {
    let encoding = encodings.get(key);
    if (!encoding) {
      encoding = (async () => {
        const dir = imagesDir && join(imagesDir, 'derived', key);
        // A key's folder is used only when its manifest is signed with the cache key and every file's
        // bytes are the ones it names: nothing planted in the cache reaches the output.
        const cachedNames = dir && signing ? await verifiedDerivatives(dir, key, signing) : null;
        if (dir && cachedNames) {
          counts.cached++;
          return { dir, names: cachedNames };
        }
        const source = sources.get(key);
        if (!source) throw new ImageRefused(`no image of this build has the derivative key ${key}`, OWN_PATHS_FIX);
        // The bytes decoded are the bytes the key was made from (the source's file was not swapped since).
        if ((await sha256Of(source.file)) !== source.digest)
          throw new ImageRefused(`the source changed while the build read it`, 'Build again.', source.url);
        const files = await encodeLimit(() => encodeDerivatives(source.file, source.plan, settings)).catch((cause: unknown) => {
          throw cause instanceof ImageRefused ? new ImageRefused(cause.message, cause.fix, source.url) : cause;
        });
        counts.encoded++;
        if (!dir || !signing) return files;
        const names = await storeDerivatives(dir, key, files, signing).catch(() => null);
        return names ? { dir, names } : files;
      })();
      encodings.set(key, encoding);
    }
    return encoding;
  };

  const resolve = (url: string): Promise<ResolvedImageFields> => {
    let answer = resolved.get(url);
    if (!answer) resolved.set(url, (answer = resolveNow(url)));
    return answer;
  };

  return {
    resolve,
    owns(file) {
      return `/${file}`.startsWith(DERIVATIVE_PREFIX) || isRasterExtension(posix.extname(file).slice(1).toLowerCase());
    },
    async write(url, target) {
      const derivative = parseDerivativeUrl(url);
      if (derivative) {
        const made = await derivativesOfKey(derivative.key);
        if (!(made instanceof Map)) {
          // Only a file the signed manifest lists, whose bytes were checked against it.
          if (!made.names.has(derivative.name)) throw new ImageRefused(`${url} is not among the derivatives of its image`, OWN_PATHS_FIX);
          await linkOrCopy(join(made.dir, derivative.name), target);
          return;
        }
        const bytes = made.get(derivative.name);
        if (!bytes) throw new ImageRefused(`${url} is not among the derivatives of its image`, OWN_PATHS_FIX);
        await writeFileAtomic(target, bytes);
        return;
      }
      // The original itself (a page links to it): published without its metadata, from the bytes the
      // digest names (a cached file swapped under its name is refused, not re-encoded).
      await resolve(url);
      const source = byUrl.get(url)!;
      if ((await sha256Of(source.file)) !== source.digest)
        throw new ImageRefused(`the build cache's copy of ${url} does not verify`, BAD_CACHE_FIX);
      await writeFileAtomic(target, await encodeLimit(() => cleanOriginal(source.file, source.image, settings)));
    },
    counts: () => ({ ...counts }),
    async close() {
      if (probes) await (await probes).save().catch(() => undefined);
      if (tempDir) await rm(await tempDir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}

// --- internal ---

const OWN_PATHS_FIX = `Paths under ${DERIVATIVE_PREFIX} are the build's own; link to the image itself instead.`;
const BAD_CACHE_FIX = 'Delete the build cache (--cache-dir) and build again.';

interface ProbeMemoEntry {
  ext: string;
  /** sha256 of the source's bytes, hex. */
  digest: string;
  image: ProbedImage;
  /** HMAC under the build cache's key of the entry's name and the values above (memoMac). */
  mac: string;
}

function memoMac(signing: CacheKey, name: string, { ext, digest, image }: Omit<ProbeMemoEntry, 'mac'>): string {
  return signing
    .sign('probe', name, ext, digest, image.format, String(image.width), String(image.height), String(image.hasAlpha))
    .toString('hex');
}

function memoSigned(signing: CacheKey, name: string, entry: ProbeMemoEntry): boolean {
  return (
    /^[0-9a-f]{64}$/.test(entry.mac) &&
    signing.verify(
      Buffer.from(entry.mac, 'hex'),
      'probe',
      name,
      entry.ext,
      entry.digest,
      entry.image.format,
      String(entry.image.width),
      String(entry.image.height),
      String(entry.image.hasAlpha),
    )
  );
}

/** What earlier builds read of each media-cache entry (immutable files, named by URL and expiry). */
interface ProbeMemo {
  get(name: string): ProbeMemoEntry | undefined;
  set(name: string, entry: ProbeMemoEntry): void;
  save(): Promise<void>;
}

const PROBE_MEMO_VERSION = 2;

async function loadProbeMemo(imagesDir: string | null): Promise<ProbeMemo> {
  const entries = new Map<string, ProbeMemoEntry>();
  const file = imagesDir && join(imagesDir, 'probes.json');
  let changed = false;
  if (file) {
    try {
      const saved = JSON.parse(await readFile(file, 'utf8')) as { version?: unknown; entries?: unknown };
      if (saved.version === PROBE_MEMO_VERSION && saved.entries && typeof saved.entries === 'object') {
        for (const [name, entry] of Object.entries(saved.entries as Record<string, unknown>))
          if (isMemoEntry(entry)) entries.set(name, entry);
      }
    } catch {
      // No memo, or an unreadable one: every source is read again.
    }
  }
  return {
    get: (name) => entries.get(name),
    set(name, entry) {
      entries.set(name, entry);
      changed = true;
    },
    async save() {
      if (!file || !changed) return;
      // Entries whose media-cache file is gone (pruned, expired and replaced) are forgotten with it.
      const held = new Set(await readdir(join(imagesDir!, '..', 'media')).catch(() => [] as string[]));
      for (const name of entries.keys()) if (!held.has(name)) entries.delete(name);
      await mkdir(imagesDir!, { recursive: true });
      await writeFileAtomic(file, JSON.stringify({ version: PROBE_MEMO_VERSION, entries: Object.fromEntries(entries) }));
    },
  };
}

function isMemoEntry(value: unknown): value is ProbeMemoEntry {
  const v = value as ProbeMemoEntry;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.ext === 'string' &&
    typeof v.digest === 'string' &&
    /^[0-9a-f]{64}$/.test(v.digest) &&
    typeof v.image === 'object' &&
    v.image !== null &&
    ['jpeg', 'png', 'webp', 'avif', 'gif'].includes(v.image.format) &&
    Number.isInteger(v.image.width) &&
    v.image.width > 0 &&
    Number.isInteger(v.image.height) &&
    v.image.height > 0 &&
    typeof v.image.hasAlpha === 'boolean' &&
    typeof v.mac === 'string'
  );
}

async function digestOfSettings(settings: ImageSettings): Promise<string> {
  const { widths, formats, fallbackWidth } = settings;
  return createHash('sha256')
    .update(JSON.stringify({ widths, formats, fallbackWidth, encoder: ENCODER_OPTIONS, codec: await codecVersion() }))
    .digest('hex');
}

const COMPLETE = '.complete';

/**
 * Whether a key's folder holds what a build of this cache key wrote: a real folder (not a link), whose
 * `.complete` lists each file's name, size and SHA-256 under a MAC of the key, and whose every file is a
 * plain file with those bytes (a hard link to another file of the machine fails the digest).
 */
async function verifiedDerivatives(dir: string, key: string, signing: CacheKey): Promise<ReadonlySet<string> | null> {
  try {
    if (!(await lstat(dir)).isDirectory()) return null;
    const { files, mac } = JSON.parse(await readFile(join(dir, COMPLETE), 'utf8')) as { files: [string, number, string][]; mac: string };
    if (!Array.isArray(files) || typeof mac !== 'string' || !signing.verify(Buffer.from(mac, 'hex'), 'derived', key, JSON.stringify(files)))
      return null;
    for (const [name, size, digest] of files) {
      const stat = await lstat(join(dir, name));
      if (!stat.isFile() || stat.size !== size || (await sha256Of(join(dir, name))) !== digest) return null;
    }
    return new Set(files.map(([name]) => name));
  } catch {
    return null;
  }
}

/**
 * A key's folder appears whole or not at all: written beside it, then renamed into place. Returns the
 * names it holds (what verifiedDerivatives would say of it), or null when another build's folder that
 * does not verify could not be replaced.
 */
async function storeDerivatives(
  dir: string,
  key: string,
  files: Map<string, Buffer>,
  signing: CacheKey,
): Promise<ReadonlySet<string> | null> {
  // One store per key and process (images.ts memoises it): the pid keeps processes apart, and the
  // cache's pruning (cli/build/cache-kinds.ts) knows the name as an interrupted write's.
  const temp = `${dir}.tmp-${process.pid}`;
  // Made anew: a folder (or a link planted there) of that name is removed first, never written through.
  await rm(temp, { recursive: true, force: true });
  await mkdir(join(dir, '..'), { recursive: true });
  await mkdir(temp);
  try {
    const listed: [string, number, string][] = [];
    for (const [name, bytes] of files) {
      await writeFile(join(temp, name), bytes);
      listed.push([name, bytes.length, createHash('sha256').update(bytes).digest('hex')]);
    }
    await writeFile(
      join(temp, COMPLETE),
      JSON.stringify({ files: listed, mac: signing.sign('derived', key, JSON.stringify(listed)).toString('hex') }),
    );
    // Another build (a shard) may have stored the same key meanwhile: its files are the same bytes. A
    // folder there that does not verify (planted, or from another key) is replaced.
    const names: ReadonlySet<string> = new Set(files.keys());
    return await rename(temp, dir).then(
      () => names,
      async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
        if ((await verifiedDerivatives(dir, key, signing)) !== null) return names;
        await rm(dir, { recursive: true, force: true });
        await rename(temp, dir);
        return names;
      },
    );
  } finally {
    await rm(temp, { recursive: true, force: true }).catch(() => undefined);
  }
}

async function makeTempDir(imagesDir: string | null): Promise<string> {
  const parent = imagesDir ?? tmpdir();
  await mkdir(parent, { recursive: true });
  return mkdtemp(join(parent, 'sources-'));
}
