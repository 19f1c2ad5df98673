import type { ReactElement } from 'react';
import type { LayoutProps } from '../../runtime/index.ts';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';

/** Every page but the home page: header and navigation, the page, footer. */
export function DefaultLayout({ children }: LayoutProps): ReactElement {
  return (
    <div className="site site--default">
      <SiteHeader />
      {/* tabIndex lets the skip link and the router move focus here after a navigation. */}
      <main id="main" className="site-main" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
