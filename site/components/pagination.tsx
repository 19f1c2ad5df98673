import type { ReactElement, ReactNode } from 'react';
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
    <PaginationBar
      label={label}
      current={page}
      pages={pageWindow(page, pageCount)}
      href={(n) => pageHref(base, n)}
      name={(n) => <PageNumber n={n} />}
      previous={page > 1 ? { page: page - 1, text: 'Previous page' } : null}
      next={page < pageCount ? { page: page + 1, text: 'Next page' } : null}
    />
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
  return (
    <PaginationBar
      label={label}
      current={current}
      pages={archiveWindow(current, top)}
      href={(n) => (n >= top ? base : archiveHref(base, n))}
      name={(n) => (n === top ? 'Latest' : <PageNumber n={n} />)}
      previous={current < top ? { page: current + 1, text: 'Newer' } : null}
      next={current > 1 ? { page: current - 1, text: 'Older' } : null}
    />
  );
}

// --- internal ---

interface PaginationBarProps {
  label: string;
  current: number;
  /** The page numbers shown, in order; null for a gap. */
  pages: readonly (number | null)[];
  href: (page: number) => string;
  name: (page: number) => ReactNode;
  /** The step before the numbers (rel="prev") and after them (rel="next"), or null where there is none. */
  previous: { page: number; text: string } | null;
  next: { page: number; text: string } | null;
}

function PaginationBar({ label, current, pages, href, name, previous, next }: PaginationBarProps): ReactElement {
  return (
    <nav className="pagination" aria-label={label}>
      {previous ? (
        <Link href={href(previous.page)} rel="prev" className="pagination__step pagination__step--prev">
          {previous.text}
        </Link>
      ) : null}
      <ol className="pagination__pages">
        {pages.map((n, i) =>
          n === null ? (
            <li key={`gap-${i}`} className="pagination__gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={n}>
              {n === current ? (
                <span className="pagination__page" aria-current="page">
                  {name(n)}
                </span>
              ) : (
                <Link href={href(n)} className="pagination__page">
                  {name(n)}
                </Link>
              )}
            </li>
          ),
        )}
      </ol>
      {next ? (
        <Link href={href(next.page)} rel="next" className="pagination__step pagination__step--next">
          {next.text}
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
