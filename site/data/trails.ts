/**
 * Breadcrumb trails. Pages show them (components/breadcrumbs.tsx) and their heads publish them as a
 * BreadcrumbList (structured-data.ts), so both are built from these section crumbs and cannot disagree.
 */

export interface Crumb {
  label: string;
  /** Omitted for the current page, which is the last crumb. */
  href?: string;
}

export const NEWS_CRUMB = { label: 'News', href: '/news' } as const;
export const EVENTS_CRUMB = { label: 'Events', href: '/events' } as const;
export const PUBLICATIONS_CRUMB = { label: 'Publications', href: '/publications' } as const;
export const RESEARCH_CRUMB = { label: 'Research', href: '/research' } as const;
export const ABOUT_CRUMB = { label: 'About', href: '/about' } as const;

/** The trail of a list page: just the list on page 1; the list, then the page, on later pages. */
export function listTrail(label: string, base: string, page: number): Crumb[] {
  return page > 1 ? laterTrail(label, base, page) : [{ label }];
}

/**
 * The trail of an archive page (site/data/paging.ts: numbered from the oldest, so page 1 is not the list's
 * own path) or of a later page: the list, then the page.
 */
export function laterTrail(label: string, base: string, page: number): Crumb[] {
  return [{ label, href: base }, { label: `Page ${page}` }];
}
