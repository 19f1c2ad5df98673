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
  return value !== undefined && new RegExp(`^[1-9]\\d{0,${MAX_PAGE_DIGITS - 1}}$`).test(value) && value !== '1';
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
  for (let page = current - neighbours; page <= current + neighbours; page++) if (page >= 1 && page <= count) shown.add(page);
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
