import type { ReactElement, ReactNode } from 'react';
import { useLocation } from 'wouter';
import { Link, SharedMarkup, useSite } from '../../runtime/index.ts';
import { SearchField } from '../components/search-field.tsx';
import type { NavItemData, SiteQueryResult } from '../queries/site.ts';
import { activeHref } from './active-section.ts';

/** A menu entry: a client-side link for site paths, a plain link for anything else. */
export function NavLink({ item, current }: { item: NavItemData; current: boolean }): ReactElement {
  if (!item.href.startsWith('/')) return <a href={item.href}>{item.label}</a>;
  return (
    <Link href={item.href} aria-current={current ? 'page' : undefined}>
      {item.label}
    </Link>
  );
}

/** The skip link, the site name, the main navigation and the search field; `children` adds a band below them (the home hero). */
export function SiteHeader({ children }: { children?: ReactNode }): ReactElement {
  const { site } = useSite<SiteQueryResult>();
  const [path] = useLocation();
  const active = activeHref(site.navigation, path);
  // The search page has a field of its own.
  const searchField = path !== '/search';
  const header = (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className={children ? 'site-header site-header--hero' : 'site-header'}>
        <div className="site-header__bar">
          <Link href="/" className="site-header__brand">
            <span className="site-header__mark" aria-hidden="true" />
            {site.name}
          </Link>
          <nav className="main-nav" aria-label="Main">
            <ul className="main-nav__list">
              {site.navigation.map((item) => (
                <li key={item.href} className="main-nav__item">
                  <NavLink item={item} current={item.href === active} />
                </li>
              ))}
            </ul>
          </nav>
          {searchField ? <SearchField /> : null}
        </div>
        {children}
      </header>
    </>
  );
  // Without a band below it, the header depends only on the site, the active section and whether it has the search field.
  return children ? (
    header
  ) : (
    <SharedMarkup cacheKey={`site-header ${active ?? ''}${searchField ? '' : ' no-search'}`}>{header}</SharedMarkup>
  );
}
