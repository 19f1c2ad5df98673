import type { ReactElement } from 'react';
import { useSite, type LayoutProps } from '../../runtime/index.ts';
import type { SiteQueryResult } from '../queries/site.ts';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';

/** The home page: the default frame plus a hero band that states what the institute is. */
export function HomeLayout({ children }: LayoutProps): ReactElement {
  const { site } = useSite<SiteQueryResult>();
  return (
    <div className="site site--home">
      <SiteHeader>
        <div className="hero">
          <div className="hero__inner">
            <p className="hero__tagline">{site.tagline}</p>
            <p className="hero__description">{site.description}</p>
          </div>
          <div className="hero__blocks" aria-hidden="true">
            <span className="hero__block hero__block--0" />
            <span className="hero__block hero__block--1" />
            <span className="hero__block hero__block--2" />
          </div>
        </div>
      </SiteHeader>
      {/* tabIndex lets the skip link and the router move focus here after a navigation. */}
      <main id="main" className="site-main site-main--home" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
