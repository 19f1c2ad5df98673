import type { BuiltPage, KeptPage, OutputCollector } from '../../runtime/shared/route-data.ts';
import { createDuplicateCheck } from '../content/crawl.ts';
import { searchEntries, type SearchedPage, type SearchRoutes } from './search-documents.ts';

/** What a page's data feeds besides the page's own files. */
export interface PageFeedInput {
  /** Extra outputs (feeds, calendars), each shown every page's data, or its note of a page kept unread. */
  collectors: readonly OutputCollector[];
  /** The routes the site search indexes; null: no search index. */
  searchRoutes: SearchRoutes | null;
  /** Where a page's search entries go; null with no search index. */
  searched: SearchedPage[] | null;
  /** The site's data, which a route's search function is given. */
  site: Record<string, unknown>;
  /** Each route's place in the route table. */
  routeOrder: ReadonlyMap<string, number>;
}

/**
 * Each page's data as it streams past, fed to what spans the site: the same way in a build
 * (render/render-pages.ts) and in a merge of shards (build/merge.ts).
 */
export interface PageFeed {
  /**
   * A page with its data: fails when it writes a file a page before it writes, shows it to every extra
   * output, and adds its search entries unless `search` is null (its renderer gives them, with the
   * documents it reads from the HTML). Returns the outputs' notes of it, in the outputs' order, trailing
   * nulls left out.
   */
  read(page: BuiltPage, search: { kept: boolean } | null): readonly unknown[];
  /** A page kept from the previous build without its data: checked as `read` checks one, and each output given its note of it. */
  unread(page: KeptPage & { data?: unknown }, notes: readonly unknown[]): void;
}

export function createPageFeed({ collectors, searchRoutes, searched, site, routeOrder }: PageFeedInput): PageFeed {
  const checkDuplicate = createDuplicateCheck();
  return {
    read(page, search) {
      const { path, routeId, params, data } = page;
      checkDuplicate(path, data);
      const notes = notesOf(collectors.map((collector) => collector.page({ path, routeId, params, data })));
      const searchOf = search ? searchRoutes?.get(routeId) : undefined;
      const entries = searchOf ? searchEntries(searchOf, data, params, site) : [];
      if (entries.length > 0) searched!.push({ path, route: routeOrder.get(routeId) ?? 0, entries, kept: search!.kept });
      return notes;
    },
    unread({ path, routeId, params, data }, notes) {
      checkDuplicate(path, data);
      for (const [i, collector] of collectors.entries()) collector.kept!(notes[i] ?? null, { path, routeId, params });
    },
  };
}

// --- internal ---

/** The outputs' notes of a page, in the outputs' order, trailing nulls left out: most pages give none, and share one empty list. */
function notesOf(notes: readonly unknown[]): readonly unknown[] {
  let end = notes.length;
  while (end > 0 && (notes[end - 1] === undefined || notes[end - 1] === null)) end--;
  return end === 0 ? NO_NOTES : notes.slice(0, end).map((note) => note ?? null);
}

const NO_NOTES: readonly unknown[] = Object.freeze([]);
