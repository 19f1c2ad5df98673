import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The kinds of entry the build cache holds beside the states of output folders (build-state.ts), each
 * declaring where its entries are, how an entry is named, and what of a build's own work refers to one:
 * pruning (cache-prune.ts) keeps the entries a kept state refers to and removes the others, and `site
 * cache` lists them. A new kind of entry is one more CacheKind in CACHE_KINDS; a kind without `usedBy`
 * is listed, never pruned (one file that keeps itself bounded, say).
 */
export interface CacheKind {
  /** Its name in `site cache` and in a state's uses. */
  name: string;
  /** What it holds, for `site cache`. */
  holds: string;
  /** What of the top of the cache folder is its own (a folder, or one file): `site cache` counts the rest as other. */
  top: string;
  /** Every entry on disk now. */
  entries(cacheDir: string): Promise<CacheEntry[]>;
  /** The keys of the entries a build used, from what it knows at its end; absent: never pruned by use. */
  usedBy?(build: BuildUse): Promise<Iterable<string>> | Iterable<string>;
  /**
   * Whether an update in place refers to the previous state's entries of this kind too: what the output
   * keeps from the previous build was not asked for again, but a later full build needs the entries.
   * @default false
   */
  carried?: boolean;
  /** Whether an entry is of no use to any build whatever refers to it (an expired medium). @default never */
  dead?(entry: CacheEntry, now: number): boolean;
}

/** One entry: a file or a folder. */
export interface CacheEntry {
  /** What a state's uses name it by; null for a temporary file a write left (pruned by age alone). */
  key: string | null;
  path: string;
  /** Its name in the kind's folder. */
  name: string;
}

/** What a finished build knows of the cache entries it used, for the kinds' usedBy. */
export interface BuildUse {
  /** The media cache's entries the build took or kept (content/media-cache.ts MediaCache.used). */
  mediaKeys(): Promise<readonly string[]>;
  /** The media URLs the output holds. */
  mediaUrls: ReadonlySet<string>;
  /** The search cache's entries the index used (output/search-cache.ts), none without an index. */
  searchKeys: readonly string[];
  /** The client bundle's entry (bundle/bundle-cache.ts). */
  bundleKey: string;
}

/** Downloaded media (content/media-cache.ts): `media/{key}.{expires}`. */
const media: CacheKind = {
  name: 'media',
  top: 'media',
  holds: 'downloaded media, while the backend says they are fresh',
  entries: (cacheDir) => entriesOf(join(cacheDir, 'media'), (name) => /^([0-9a-f]{32})\.\d+(?:\.[0-9a-f]{32})?$/.exec(name)?.[1] ?? null),
  usedBy: (build) => build.mediaKeys(),
  carried: true,
  // Past its `expires`, an entry is never read again (a fresh download is a new entry).
  dead: (entry, now) => entry.key !== null && Number(entry.name.split('.')[1]) <= now,
};

/** The site search's partitions (output/search-cache.ts): `search/{key}.pagefind`. */
const search: CacheKind = {
  name: 'search',
  top: 'search',
  holds: "the site search's partitions",
  entries: (cacheDir) => entriesOf(join(cacheDir, 'search'), (name) => /^([A-Za-z0-9_-]{43})\.pagefind$/.exec(name)?.[1] ?? null),
  usedBy: (build) => build.searchKeys,
};

/** Client bundles (bundle/bundle-cache.ts): `bundle/{inputs hash}/`. */
const bundle: CacheKind = {
  name: 'bundle',
  top: 'bundle',
  holds: 'client bundles, by the hash of their inputs',
  entries: (cacheDir) => entriesOf(join(cacheDir, 'bundle'), (name) => (/^[0-9a-f]{16,64}$/.test(name) ? name : null)),
  usedBy: (build) => [build.bundleKey],
};

/** Image derivatives (content/images/images.ts): `images/derived/{key}/`, the key in each derivative's URL. */
const images: CacheKind = {
  name: 'images',
  top: 'images',
  holds: "image derivatives (srcset widths), by their source's bytes and the settings",
  entries: (cacheDir) => entriesOf(join(cacheDir, 'images', 'derived'), (name) => (/^[0-9a-f]{20}$/.test(name) ? name : null)),
  usedBy: (build) => {
    const keys = new Set<string>();
    for (const url of build.mediaUrls) {
      const key = /^\/media\/_img\/([0-9a-f]{20})\//.exec(url)?.[1];
      if (key) keys.add(key);
    }
    return keys;
  },
};

/** The cleaned rich text (content/rich-text-cache.ts): one file, which keeps only what the last build used. */
const richText: CacheKind = {
  name: 'rich-text',
  top: 'rich-text.json',
  holds: 'what each rich text cleaned to (what the last build used only)',
  entries: async (cacheDir) =>
    (await lstat(join(cacheDir, 'rich-text.json')).catch(() => null))
      ? [{ key: 'rich-text.json', path: join(cacheDir, 'rich-text.json'), name: 'rich-text.json' }]
      : [],
};

/** Every kind, in the order `site cache` lists them. */
export const CACHE_KINDS: readonly CacheKind[] = [media, images, search, bundle, richText];

/**
 * The entries of a kind's folder: those `keyOf` names, and temporary files of interrupted writes
 * (`….tmp`, `….tmp-{pid}`: key null). Anything else there is left alone.
 */
async function entriesOf(dir: string, keyOf: (name: string) => string | null): Promise<CacheEntry[]> {
  const entries: CacheEntry[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const key = keyOf(name);
    if (key !== null || /\.tmp(?:-\d+)?$/.test(name)) entries.push({ key, path: join(dir, name), name });
  }
  return entries;
}
