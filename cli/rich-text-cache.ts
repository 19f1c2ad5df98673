import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SANITIZER_VERSION, sanitizeRichText } from './sanitize.ts';

/**
 * Cleaning rich text with sanitize-html was the largest cost of a build after rendering (about 0.05 ms a
 * kilobyte), and most of a site's rich text is the same from one build to the next. The build cache
 * remembers what each text cleaned to, under the SHA-256 of the text: a hash nobody can make two texts
 * share, since the text is untrusted and a collision would let unclean HTML through. A text that cleans to
 * itself (the usual case) is remembered by its hash alone, so the cache stays small however large the site.
 */
export interface RichTextCache {
  /** sanitizeRichText(html), from the cache when this text was cleaned before. */
  clean(html: string): string;
  /** Texts cleaned by sanitize-html in this build, and texts taken from the cache. */
  readonly counts: { cleaned: number; reused: number };
  /**
   * Writes what this build cleaned or reused, and only that: text no page uses any more is forgotten.
   * Atomic, so a build interrupted while saving leaves the previous cache whole.
   */
  save(): Promise<void>;
}

/** The cache file in `cacheDir`; a missing, unreadable or outdated one starts an empty cache. */
export async function loadRichTextCache(cacheDir: string): Promise<RichTextCache> {
  const file = join(cacheDir, 'rich-text.json');
  const saved = await readFile(file, 'utf8')
    .then((text) => JSON.parse(text) as SavedCache)
    .catch(() => null);
  const usable = saved?.version === SANITIZER_VERSION;
  const before = new Map<string, string | null>(usable ? saved.unchanged.map((hash) => [hash, null]) : []);
  if (usable) for (const [hash, clean] of Object.entries(saved.changed)) before.set(hash, clean);
  const used = new Map<string, string | null>();
  const counts = { cleaned: 0, reused: 0 };
  let changedChars = 0;
  return {
    counts,
    clean(html) {
      const hash = createHash('sha256').update(html).digest('base64url');
      const known = used.get(hash) ?? before.get(hash);
      if (known !== undefined) {
        counts.reused++;
        used.set(hash, known);
        return known ?? html;
      }
      counts.cleaned++;
      const clean = sanitizeRichText(html);
      if (clean === html) used.set(hash, null);
      else if (changedChars + clean.length <= MAX_CHANGED_CHARS) {
        // Text that cleaning changes is kept whole; up to a bound, so that the cache never holds a
        // large site's rich text in memory. Beyond it, such text is cleaned again next time.
        changedChars += clean.length;
        used.set(hash, clean);
      }
      return clean;
    },
    async save() {
      const unchanged: string[] = [];
      const changed: Record<string, string> = {};
      for (const [hash, clean] of used) {
        if (clean === null) unchanged.push(hash);
        else changed[hash] = clean;
      }
      const content: SavedCache = { version: SANITIZER_VERSION, unchanged, changed };
      await mkdir(dirname(file), { recursive: true });
      const temp = `${file}.${randomUUID()}.tmp`;
      await writeFile(temp, JSON.stringify(content));
      await rename(temp, file);
    },
  };
}

// --- internal ---

/** Characters of changed clean text the cache keeps (about 32 MB of memory at most). */
const MAX_CHANGED_CHARS = 16 * 1024 * 1024;

interface SavedCache {
  /** SANITIZER_VERSION of the code that cleaned the texts. */
  version: string;
  /** Hashes of texts that clean to themselves. */
  unchanged: string[];
  /** Hash of a text → what it cleans to. */
  changed: Record<string, string>;
}
