import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { cacheKeyFor, sealJson, type CacheKey } from '../config/cache-key.ts';
import { readText } from '../output/read.ts';
import { sanitizerVersion, sanitizeRichText } from './sanitize.ts';
import { writeFileAtomic } from '../output/write.ts';

/**
 * Cleaning rich text with sanitize-html was the largest cost of a build after rendering (about 0.05 ms a
 * kilobyte), and most of a site's rich text is the same from one build to the next. The build cache
 * remembers what each text cleaned to, under the SHA-256 of the text: a hash nobody can make two texts
 * share, since the text is untrusted and a collision would let unclean HTML through. A text that cleans to
 * itself (the usual case) is remembered by its hash alone, so the cache stays small however large the site.
 * What the file says is HTML the site shows without cleaning it again, so it is believed only when its
 * HMAC under the build cache's key verifies (cli/config/cache-key.ts): whoever can write the cache folder
 * but does not hold the key can make a build clean everything again, and nothing more.
 */
export interface RichTextCache {
  /** sanitizeRichText(html), from the cache when this text was cleaned before. */
  clean(html: string): string;
  /** Texts cleaned by sanitize-html in this build, and texts whose cleaned form was known (from the previous build or earlier in this one). */
  readonly counts: { cleaned: number; reused: number };
  /**
   * Writes what this build cleaned or reused, and only that: text no page uses any more is forgotten.
   * Atomic, so a build interrupted while saving leaves the previous cache whole; a failure leaves no
   * temporary file behind.
   */
  save(): Promise<void>;
}

/** The cache file in `cacheDir`; a missing, unreadable or outdated one starts an empty cache. */
export async function loadRichTextCache(
  cacheDir: string,
  { maxChangedChars = MAX_CHANGED_CHARS, signer = cacheKeyFor(cacheDir) }: { maxChangedChars?: number; signer?: CacheKey } = {},
): Promise<RichTextCache> {
  const file = join(cacheDir, 'rich-text.json');
  const saved = await readText(file)
    .then((text) => verified(text, signer))
    .catch(() => null);
  const usable = saved?.version === sanitizerVersion();
  // One map for the previous build's texts and this build's, 90,000 hashes at 100,000 pages: a hash maps
  // to what this build used (null for a text that cleans to itself, else its clean form), or, until this
  // build uses it, to what the previous build knew of it (KNOWN_SAME or a Known). Two maps, one of each,
  // held their own copy of every hash for the whole build.
  // Only well-formed entries are read: a damaged or altered file's others are cleaned again.
  const entries = new Map<string, Entry>();
  if (usable && Array.isArray(saved.unchanged))
    for (const hash of saved.unchanged) if (typeof hash === 'string') entries.set(hash, KNOWN_SAME);
  if (usable && typeof saved.changed === 'object' && saved.changed !== null)
    for (const [hash, clean] of Object.entries(saved.changed)) if (typeof clean === 'string') entries.set(hash, { clean });
  const counts = { cleaned: 0, reused: 0 };
  let changedChars = 0;
  // Remembers `clean` for the next build: text that cleaning changes is kept whole, up to a bound on
  // the whole cache (what the previous build kept counts too), so that it never holds a large site's
  // rich text in memory; beyond the bound, such text is cleaned again next time.
  const remember = (hash: string, html: string, clean: string): void => {
    if (clean === html) entries.set(hash, null);
    else if (changedChars + clean.length <= maxChangedChars) {
      changedChars += clean.length;
      entries.set(hash, clean);
    }
  };
  return {
    counts,
    clean(html) {
      // The hash of the string's UTF-16 code units: as UTF-8, a lone surrogate and U+FFFD would share one.
      const hash = createHash('sha256').update(html, 'utf16le').digest('base64url');
      const entry = entries.get(hash);
      if (entry === undefined) {
        counts.cleaned++;
        const clean = sanitizeRichText(html);
        remember(hash, html, clean);
        return clean;
      }
      counts.reused++;
      if (entry === null || typeof entry === 'string') return entry ?? html;
      const known = entry === KNOWN_SAME ? html : entry.clean;
      remember(hash, html, known);
      return known;
    },
    async save() {
      const unchanged: string[] = [];
      const changed: Record<string, string> = {};
      for (const [hash, entry] of entries) {
        if (entry === null) unchanged.push(hash);
        else if (typeof entry === 'string') changed[hash] = entry;
      }
      await writeFileAtomic(
        file,
        sealJson(signer, FORMAT, JSON.stringify({ version: sanitizerVersion(), unchanged, changed } satisfies SavedCache)),
      );
    },
  };
}

// --- internal ---

/** What the MAC is taken over besides the file's text. */
const FORMAT = 'site-rich-text-cache/3';

/** The saved cache when the file is sealed as save() seals it (CacheKey.jsonSeal); null otherwise. */
function verified(text: string, signer: CacheKey): SavedCache | null {
  return signer.sealedJson(FORMAT, text) ? (JSON.parse(text) as SavedCache) : null;
}

/** Characters of changed clean text the cache keeps (about 32 MB of memory at most). */
const MAX_CHANGED_CHARS = 16 * 1024 * 1024;

/** A text the previous build knew to clean to itself, not yet used by this build. */
const KNOWN_SAME = Symbol('known to clean to itself');

/** What the previous build knew a text cleans to, not yet used by this build. */
interface Known {
  readonly clean: string;
}

/** A hash's entry: used by this build (null: cleans to itself; a string: its clean form), or known from the previous build only. */
type Entry = null | string | typeof KNOWN_SAME | Known;

interface SavedCache {
  /** sanitizerVersion() of the code that cleaned the texts. */
  version: string;
  /** Hashes of texts that clean to themselves. */
  unchanged: string[];
  /** Hash of a text → what it cleans to. */
  changed: Record<string, string>;
}
