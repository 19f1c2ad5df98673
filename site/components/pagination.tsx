import type { ReactElement } from 'react';
import { Link } from '../../runtime/index.ts';
import { archiveHref, archiveWindow, pageHref, pageWindow } from '../data/paging.ts';

export interface PaginationProps {
  /** Path of page 1 of the list, e.g. `/news`. */
  base: string;
  page: number;
  pageCount: number;
  /** Names the navigation for screen readers, e.g. "News pages". */
  label: string;
}

/**
 * Links between the pages of a list. They are plain links to prerendered pages, so the whole collection
 * is reachable without JavaScript and without the API, by visitors and crawlers alike.
 */
export function Pagination({ base, page, pageCount, label }: PaginationProps): ReactElement | null {
  if (pageCount <= 1) return null;
  return (
    <nav className="pagination" aria-label={label}>
      {page > 1 ? (
        <Link href={pageHref(base, page - 1)} rel="prev" className="pagination__step pagination__step--prev">
          Previous page
        </Link>
      ) : null}
      <ol className="pagination__pages">
        {pageWindow(page, pageCount).map((n, i) =>
          n === null ? (
            <li key={`gap-${i}`} className="pagination__gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={n}>
              {n === page ? (
                <span className="pagination__page" aria-current="page">
                  <span className="visually-hidden">Page </span>
                  {n}
                </span>
              ) : (
                <Link href={pageHref(base, n)} className="pagination__page">
                  <span className="visually-hidden">Page </span>
                  {n}
                </Link>
              )}
            </li>
          ),
        )}
      </ol>
      {page < pageCount ? (
        <Link href={pageHref(base, page + 1)} rel="next" className="pagination__step pagination__step--next">
          Next page
        </Link>
      ) : null}
    </nav>
  );
}

export interface ArchivePaginationProps {
  /** Path of the list's own page, e.g. `/news`. */
  base: string;
  /** The archive page shown, or `top` on the list's own path. */
  current: number;
  /** The number that stands for the list's own path (site/data/paging.ts, archiveWindow). */
  top: number;
  /** Names the navigation for screen readers, e.g. "News pages". */
  label: string;
}

/**
 * Links between the pages of an archive (site/data/paging.ts): newest first, the list's own path ("Latest")
 * then the archive pages down to page 1, the oldest. What an archive page links to depends on its own
 * number and how many pages are newer (at most 3), so it stays the same page as the list grows.
 */
export function ArchivePagination({ base, current, top, label }: ArchivePaginationProps): ReactElement | null {
  if (top <= 1) return null;
  const href = (n: number): string => (n >= top ? base : archiveHref(base, n));
  return (
    <nav className="pagination" aria-label={label}>
      {current < top ? (
        <Link href={href(current + 1)} rel="prev" className="pagination__step pagination__step--prev">
          Newer
        </Link>
      ) : null}
      <ol className="pagination__pages">
        {archiveWindow(current, top).map((n, i) =>
          n === null ? (
            <li key={`gap-${i}`} className="pagination__gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={n}>
              {n === current ? (
                <span className="pagination__page" aria-current="page">
                  {n === top ? 'Latest' : <PageNumber n={n} />}
                </span>
              ) : (
                <Link href={href(n)} className="pagination__page">
                  {n === top ? 'Latest' : <PageNumber n={n} />}
                </Link>
              )}
            </li>
          ),
        )}
      </ol>
      {current > 1 ? (
        <Link href={href(current - 1)} rel="next" className="pagination__step pagination__step--next">
          Older
        </Link>
      ) : null}
    </nav>
  );
}

function PageNumber({ n }: { n: number }): ReactElement {
  return (
    <>
      <span className="visually-hidden">Page </span>
      {n}
    </>
  );
}
