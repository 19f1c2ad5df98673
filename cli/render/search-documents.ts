import { createHash } from 'node:crypto';
import type { RouteDataDefinition, RouteParamsRecord, SearchEntry } from '../../runtime/shared/route-data.ts';
import { compareText } from '../../runtime/shared/compare.ts';
import { escapeHtml } from './html.ts';

/**
 * What the site search indexes of a page (cli/output/search-index.ts): the entries its route's `search`
 * gives (site/routes.build.ts), taken where the page is rendered, and for each a small HTML document
 * for Pagefind. An entry without text of its own is the page's rendered main content, so the index holds
 * what a visitor reads, headings weighted as Pagefind weights them; its section and year become
 * filters, its title, date and image metadata. Pure.
 */

export type SearchFunction = NonNullable<RouteDataDefinition['search']>;

/** The routes whose pages the search indexes, by route id. */
export type SearchRoutes = ReadonlyMap<string, SearchFunction>;

/** What a renderer needs to give the site search a page's entries and the hash of its documents. */
export interface SearchSetup {
  routes: SearchRoutes;
  /** CSS selectors left out of each page's main content (site/site.config.ts `search.exclude`). */
  exclude: readonly string[];
}

/** A page that gives the search entries, as the build keeps it until the index is built. */
export interface SearchedPage {
  path: string;
  /** Its route's place in the route table: the index takes pages in route order, then path order. */
  route: number;
  entries: readonly SearchEntry[];
  /** Kept from the previous build by an update in place: its file is in the output folder, not the staging folder. */
  kept: boolean;
  /**
   * documentsHash of its documents, taken where it was rendered from the very HTML written: the index's
   * partition keys need no page read back. Absent for a kept page and one a merge of shards reads back.
   */
  documents?: string;
}

/** One entry of the index: where the result leads, and the document Pagefind reads. */
export interface SearchDocument {
  url: string;
  html: string;
}

export function searchRoutesOf(routeData: Readonly<Record<string, RouteDataDefinition>>): SearchRoutes {
  return new Map(Object.entries(routeData).flatMap(([id, route]) => (route.search ? [[id, route.search] as const] : [])));
}

/** The entries a page gives the search: its route's `search` on its data, as a list. */
export function searchEntries(
  search: SearchFunction,
  data: unknown,
  params: RouteParamsRecord,
  site: Record<string, unknown>,
): readonly SearchEntry[] {
  const given = search(data as never, params, site);
  return given === null ? [] : Array.isArray(given) ? given : [given as SearchEntry];
}

/** True when an entry is found by the page's main content (it has no text of its own), so the page's HTML is needed. */
export function usesMainContent(entries: readonly SearchEntry[]): boolean {
  return entries.some((entry) => entry.text === undefined);
}

/**
 * The page's documents for the index, one per entry; `html` is the page's HTML ('' when no entry uses it).
 * The parts `exclude` names are left out here (withoutExcluded), so a document is what Pagefind indexes
 * and its hash changes only when that does.
 */
export function searchDocuments(
  page: Pick<SearchedPage, 'path' | 'entries'>,
  html: string,
  language: string,
  exclude: readonly string[] = [],
): SearchDocument[] {
  let main: string | null = null;
  return page.entries.map((entry) => {
    const body =
      entry.text === undefined
        ? (main ??= withoutExcluded(mainContent(html), exclude))
        : `<h1>${escapeHtml(entry.title)}</h1><p>${escapeHtml(entry.text)}</p>`;
    return { url: entryUrl(page.path, entry.url), html: searchDocument(entry, body, language) };
  });
}

/** The inside of the page's `<main>` element (the layout's, which holds the page); '' when it has none. */
export function mainContent(html: string): string {
  const open = html.indexOf('<main');
  const start = open < 0 ? -1 : html.indexOf('>', open);
  const end = html.lastIndexOf('</main>');
  return start < 0 || end < start ? '' : html.slice(start + 1, end);
}

/**
 * `html` (markup as React writes it: well formed, void elements unclosed or self-closed) without the
 * elements the selectors name, their contents included. Selectors of the forms `tag`, `.class` and
 * `tag.class` are applied; any other is left to Pagefind (which is given every selector all the same).
 */
export function withoutExcluded(html: string, selectors: readonly string[]): string {
  const simple = simpleSelectors(selectors);
  if (simple.length === 0 || html === '') return html;
  const excluded = (tag: string, attributes: string): boolean =>
    simple.some((s) => (s.tag === undefined || s.tag === tag) && (s.className === undefined || s.className.test(attributes)));
  let out = '';
  let at = 0;
  const tags = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g;
  for (let match = tags.exec(html); match; match = tags.exec(html)) {
    const [whole, closing, name, attributes] = match as unknown as [string, string, string, string];
    const tag = name.toLowerCase();
    if (closing || !excluded(tag, attributes)) continue;
    out += html.slice(at, match.index);
    // Skip to the element's own end: its closing tag at the same depth of that tag name.
    if (attributes.endsWith('/') || VOID_ELEMENTS.has(tag)) {
      at = match.index + whole.length;
      continue;
    }
    const same = new RegExp(`<(/?)${tag}(?=[\\s/>])[^>]*>`, 'gi');
    same.lastIndex = match.index + whole.length;
    let depth = 1;
    let end = html.length;
    for (let inner = same.exec(html); inner; inner = same.exec(html)) {
      if (inner[1]) depth--;
      else if (!inner[0].endsWith('/>')) depth++;
      if (depth === 0) {
        end = inner.index + inner[0].length;
        break;
      }
    }
    at = end;
    tags.lastIndex = end;
  }
  return out + html.slice(at);
}

/** The selectors withoutExcluded applies, each made once per list of selectors. */
function simpleSelectors(selectors: readonly string[]): { tag: string | undefined; className: RegExp | undefined }[] {
  let made = SELECTORS.get(selectors);
  if (!made) {
    made = selectors.flatMap((selector) => {
      const match = /^([a-z][a-z0-9-]*)?(?:\.([A-Za-z_][\w-]*))?$/.exec(selector.trim());
      // A class name of letters, digits, `_` and `-` only: nothing in it means anything to a regular expression.
      return match && (match[1] || match[2])
        ? [
            {
              tag: match[1]?.toLowerCase(),
              className: match[2] === undefined ? undefined : new RegExp(`\\sclass="(?:[^"]*\\s)?${match[2]}(?:\\s[^"]*)?"`),
            },
          ]
        : [];
    });
    SELECTORS.set(selectors, made);
  }
  return made;
}

const SELECTORS = new WeakMap<readonly string[], { tag: string | undefined; className: RegExp | undefined }[]>();

/** Elements without a closing tag. */
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** The hash of a page's documents for the index, what Pagefind is given of it: each field's length, then the field. */
export function documentsHash(documents: readonly SearchDocument[]): string {
  const hash = createHash('sha256');
  for (const document of documents) hash.update(`${document.url.length}:${document.url}${document.html.length}:`).update(document.html);
  return hash.digest('base64url');
}

/** Pages in the order the index takes them, whatever order they were rendered in: route order, then path. */
export function compareSearchedPages(a: Pick<SearchedPage, 'route' | 'path'>, b: Pick<SearchedPage, 'route' | 'path'>): number {
  return a.route - b.route || compareText(a.path, b.path);
}

// --- internal ---

/**
 * Metadata and filters go outside the indexed body, so they are read but not searched; `data-pagefind-body`
 * makes the body the only part Pagefind indexes.
 */
function searchDocument(entry: SearchEntry, body: string, language: string): string {
  const year = entry.year ?? (entry.date ? entry.date.slice(0, 4) : undefined);
  const fields: [kind: 'meta' | 'filter', name: string, value: string | undefined][] = [
    ['meta', 'title', entry.title],
    ['meta', 'date', entry.date],
    ['meta', 'image', entry.image],
    ['filter', 'section', entry.section],
    ['filter', 'year', year],
  ];
  const marks = fields
    .filter(([, , value]) => value !== undefined && value !== '')
    .map(([kind, name, value]) => `<div data-pagefind-${kind}="${name}">${escapeHtml(value!)}</div>`)
    .join('');
  return `<html lang="${escapeHtml(language)}"><body>${marks}<div data-pagefind-body>${body}</div></body></html>`;
}

/** An entry's URL: the page's path, the page's path with the entry's `#id`, or a site path of its own. */
function entryUrl(path: string, url: string | undefined): string {
  if (url === undefined) return path;
  return url.startsWith('#') ? path + url : url;
}
