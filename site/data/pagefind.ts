import { SEARCH_DIR, SEARCH_PARTS_FILE } from '../../runtime/shared/contract.ts';

/**
 * Pagefind's browser API (`/_search/pagefind.js`, written by the build with the index), as much of it as
 * the search page uses. Loaded on the search page, or when the header's search field gets focus, never
 * with any other page: it is not part of the bundle, and nothing else imports this module.
 */

/** One result: its score now, its data (URL, excerpt, metadata) when asked. */
export interface PagefindResult {
  id: string;
  score: number;
  data(): Promise<PagefindResultData>;
}

export interface PagefindResultData {
  url: string;
  /** Text with the matched words in `<mark>`; `<` and `>` escaped (site/data/search-excerpt.ts). */
  excerpt: string;
  meta: { title?: string; date?: string; image?: string; image_alt?: string };
  filters: Record<string, string[]>;
}

export interface PagefindSearch {
  results: PagefindResult[];
  unfilteredResultCount: number;
  /** Result counts per filter value, with the filters applied. */
  filters: Record<string, Record<string, number>>;
  /** Result counts per filter value, without the filters. */
  totalFilters: Record<string, Record<string, number>>;
}

export interface Pagefind {
  options(options: { excerptLength?: number }): Promise<void>;
  init(): Promise<void>;
  /** Searches another index (a partition of the site's) with this one; `options` as options() takes them, for it. */
  mergeIndex(path: string, options?: { excerptLength?: number }): Promise<void>;
  /** Drops every index and instance, so that init() starts again from nothing. */
  destroy(): Promise<void>;
  search(term: string, options?: { filters?: Record<string, string | string[]> }): Promise<PagefindSearch | null>;
  /** Every filter value with its number of pages; loading them makes each search count its results per value. */
  filters(): Promise<Record<string, Record<string, number>>>;
}

/**
 * Loads Pagefind's module (once). The URL is made at run time, so the bundler leaves the import to the
 * browser: the file comes with the index, not with the bundle.
 */
export function loadPagefind(): Promise<Pagefind> {
  return (loading ??= import(/* @vite-ignore */ new URL(PAGEFIND_PATH, window.location.href).href).then(
    (module: Pagefind) => module,
    (error: unknown) => {
      loading = null;
      throw error;
    },
  ));
}

/** Where the build writes Pagefind's module (cli/output/search-index.ts). */
export const PAGEFIND_PATH = `/${SEARCH_DIR}/pagefind.js`;

/**
 * The index's other partitions (a large site's index is cut into several, cli/output/search-index.ts),
 * to merge into the one loadPagefind's module starts with: their paths, often none.
 */
export async function loadSearchParts(): Promise<string[]> {
  const response = await fetch(new URL(`/${SEARCH_PARTS_FILE}`, window.location.href), { cache: 'no-cache' });
  if (!response.ok) throw new Error(`/${SEARCH_PARTS_FILE}: HTTP ${response.status}`);
  const parts: unknown = await response.json();
  // Only paths of this site's index: the list is the build's, but a page must never load a script's data from elsewhere.
  if (
    !Array.isArray(parts) ||
    !parts.every((p) => typeof p === 'string' && /^\/_search\/part-\d+\/$/.test(p)) ||
    new Set(parts).size !== parts.length
  )
    throw new Error(`/${SEARCH_PARTS_FILE} does not list the index's partitions`);
  return parts as string[];
}

let loading: Promise<Pagefind> | null = null;
