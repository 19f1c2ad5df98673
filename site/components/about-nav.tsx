import type { ReactElement } from 'react';
import { Link } from '../../runtime/index.ts';

/** The about pages as a family: their routes are fixed (docs/decisions/route-table.md), so their menu is too. */
export const ABOUT_LINKS = [
  { href: '/about', label: 'About us' },
  { href: '/about/people', label: 'People' },
  { href: '/about/contact', label: 'Contact' },
  { href: '/about/podcast', label: 'Podcast' },
  { href: '/about/about-large', label: 'In depth' },
  { href: '/about/artistic-research', label: 'Artistic research' },
] as const;

export type AboutHref = (typeof ABOUT_LINKS)[number]['href'];

/** Local navigation between the about pages, with the current one marked. */
export function AboutNav({ current }: { current: AboutHref }): ReactElement {
  return (
    <nav className="sub-nav" aria-label="About">
      <ul className="sub-nav__list">
        {ABOUT_LINKS.map((link) => (
          <li key={link.href}>
            <Link href={link.href} className="sub-nav__link" aria-current={link.href === current ? 'page' : undefined}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Breadcrumbs for the pages below /about. */
export { ABOUT_CRUMB } from '../data/trails.ts';
