import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** One result as Pagefind stores it in the index: what the search page shows of it. */
export interface IndexedFragment {
  url: string;
  content: string;
  filters: Record<string, string[]>;
  meta: Record<string, string>;
}

/**
 * Every result of a built site's search index (`_search/fragment/`, and each partition's), read the way Pagefind's browser
 * code reads it: gzip, a `pagefind_dcd` signature, then JSON, one fragment or several keyed by hash.
 */
export async function readIndexFragments(siteDir: string): Promise<IndexedFragment[]> {
  const fragments: IndexedFragment[] = [];
  // Every partition's: `_search/` and the `_search/part-n/` that `_search/parts.json` lists.
  const parts = JSON.parse(await readFile(join(siteDir, '_search/parts.json'), 'utf8')) as string[];
  for (const index of ['/_search/', ...parts]) {
    const dir = join(siteDir, index, 'fragment');
    for (const name of (await readdir(dir)).sort()) {
      const text = gunzipSync(await readFile(join(dir, name))).toString('utf8');
      if (!text.startsWith(SIGNATURE)) throw new Error(`${index}fragment/${name} is not a Pagefind fragment`);
      const json = JSON.parse(text.slice(SIGNATURE.length)) as IndexedFragment | Record<string, IndexedFragment>;
      fragments.push(
        ...(typeof json.url === 'string' ? [json as IndexedFragment] : Object.values(json as Record<string, IndexedFragment>)),
      );
    }
  }
  return fragments.sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
}

const SIGNATURE = 'pagefind_dcd';
