/**
 * The search page's state in its address: `/search?q=violin&section=events&year=2026`, so a search can be
 * shared and Back and Forward step through searches. Pure: the page reads it with wouter's useSearch.
 */

export interface SearchQuery {
  /** What the visitor typed, trimmed; '' for no search. */
  q: string;
  /** A section id (site/data/search-sections.ts), or null for every section. */
  section: string | null;
  /** A year, or null for every year. */
  year: string | null;
}

/** The search a query string asks for (with or without its `?`); unknown parameters are ignored. */
export function searchQueryFrom(search: string): SearchQuery {
  const params = new URLSearchParams(search);
  const value = (name: string): string | null => {
    const v = params.get(name)?.trim();
    return v ? v : null;
  };
  return { q: (params.get('q') ?? '').trim().slice(0, MAX_QUERY_LENGTH), section: value('section'), year: value('year') };
}

/** The address of a search: the path with only the parameters that are set, `q` first. */
export function searchHref(query: SearchQuery, path = '/search'): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.section) params.set('section', query.section);
  if (query.year) params.set('year', query.year);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** The filters as Pagefind takes them (`{ section: 'events' }`); only those that are set. */
export function pagefindFilters(query: SearchQuery): Record<string, string> {
  return { ...(query.section ? { section: query.section } : {}), ...(query.year ? { year: query.year } : {}) };
}

/** Longer queries are cut: nobody types them, and each word costs the search a lookup. */
const MAX_QUERY_LENGTH = 200;
