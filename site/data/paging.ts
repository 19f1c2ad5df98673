/**
 * Page numbers of the paged lists. Page 1 of a list lives at the list's own path (`/news`), later pages
 * at `{list}/page/{n}` (`/news/page/2`), each a prerendered file reachable by plain links.
 */

/** The largest page number a URL may carry; far beyond any real list, short enough to reject junk early. */
const MAX_PAGE_DIGITS = 6;

/** The page a route's params name: 1 for a list's own path. */
export function pageNumber(params: Readonly<Record<string, string | undefined>>): number {
  const page = Number(params.page ?? '1');
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** True for a `page` param a later page can have: 2 or more, digits only, no leading zero (so one URL per page). */
export function isLaterPage(value: string | undefined): boolean {
  return isArchivePage(value) && value !== '1';
}

/** The path of page `page` of the list at `base`. */
export function pageHref(base: string, page: number): string {
  return page <= 1 ? base : `${base}/page/${page}`;
}

/** How many pages `total` items fill; an empty list still has its first page. */
export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/**
 * The page numbers a pagination bar shows: the first, the last, and the current one with its neighbours;
 * `null` marks a gap. Short lists show every page.
 */
export function pageWindow(current: number, count: number, neighbours = 1): (number | null)[] {
  const shown = new Set([1, count]);
  // By offset: a page number counted up could stop changing (past 2^53) and never end the loop.
  for (let offset = -neighbours; offset <= neighbours; offset++) {
    const page = current + offset;
    if (page >= 1 && page <= count) shown.add(page);
  }
  const sorted = [...shown].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  sorted.forEach((page, i) => {
    const previous = sorted[i - 1];
    // A gap of exactly one page shows that page: a "…" would hide no more than a number.
    if (previous !== undefined && page - previous === 2) out.push(previous + 1);
    else if (previous !== undefined && page - previous > 2) out.push(null);
    out.push(page);
  });
  return out;
}

/**
 * A list whose later pages are numbered from its oldest end, as the news archive is
 * (docs/decisions/stable-news-archive.md): `{list}/page/1` holds the oldest `size` items, and every later
 * page is full, so an item added at the newest end changes the list's own path and not the pages behind
 * it. The list's own path shows what the archive pages do not: `newest` items, from `size` up to
 * `2 × size − 1` (all of them on a list shorter than that).
 */
export interface ArchiveLayout {
  /** How many items the list's own path shows. */
  newest: number;
  /** How many archive pages there are (`{list}/page/1` … `{list}/page/{pages}`). */
  pages: number;
}

/**
 * The archive layout of a list of `total` items, `size` to a page. `total` is the backend's count: one that
 * is not a count GraphQL's Int can carry (missing, negative, fractional, past 2^31 − 1) counts as none, so no
 * backend makes a page's numbers run away (the build then fails on it, site/build/list-entries.ts).
 */
export function archiveLayout(total: number, size: number): ArchiveLayout {
  const count = isCount(total) ? total : 0;
  const pages = Math.max(0, Math.floor(count / size) - 1);
  return { newest: count - pages * size, pages };
}

/** Whether `value` is a count a list's totalCount can be: an integer from 0 to GraphQL's largest Int. */
export function isCount(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_COUNT;
}

/** GraphQL's largest Int (2^31 − 1). */
const MAX_COUNT = 2 ** 31 - 1;

/**
 * How many archive pages are newer than `page`, at most 3: all an archive page's links depend on (its
 * pagination bar shows at most the next two newer pages before a gap), so a page deep in the archive stays
 * byte for byte the same as the list grows.
 */
export function newerArchivePages(page: number, pages: number): number {
  return Math.min(Math.max(0, pages - page), 3);
}

/**
 * The page numbers an archive's pagination bar shows, newest first, `null` for a gap. `top` stands for the
 * list's own path: on the list's own path it is `current` (pages + 1); on an archive page,
 * `current + newerArchivePages + 1`, so that the bar of a page deep in the archive does not depend on how
 * long the list is.
 */
export function archiveWindow(current: number, top: number): (number | null)[] {
  return pageWindow(current, top).reverse();
}

/** The archive page a route's params name, or null on the list's own path (which has no `page`). */
export function archivePageNumber(params: Readonly<Record<string, string | undefined>>): number | null {
  return params.page === undefined ? null : pageNumber(params);
}

/** True for a `page` param an archive page can have: 1 or more, digits only, no leading zero. */
export function isArchivePage(value: string | undefined): boolean {
  return value !== undefined && PAGE_PARAM.test(value);
}

/** A page number as a URL carries it: digits, no leading zero, at most MAX_PAGE_DIGITS. */
const PAGE_PARAM = new RegExp(`^[1-9]\\d{0,${MAX_PAGE_DIGITS - 1}}$`);

/** The path of archive page `page` of the list at `base` (page 1 is the oldest, so it is not the list's own path). */
export function archiveHref(base: string, page: number): string {
  return `${base}/page/${page}`;
}
