import type { ReactElement } from 'react';
import { Link } from '../../runtime/index.ts';
import { pageHref, pageWindow } from '../data/paging.ts';

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
