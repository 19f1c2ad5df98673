import type { ReactElement, ReactNode } from 'react';
import { Breadcrumbs, type Crumb } from './breadcrumbs.tsx';

export interface PageHeaderProps {
  title: string;
  /** A short line above the title naming the section or the kind of item. */
  kicker?: ReactNode;
  /** The page's summary, set in the lead style. */
  lead?: string;
  breadcrumbs?: readonly Crumb[];
  children?: ReactNode;
}

/** The top of every page: where you are, the one `<h1>`, and what the page is about. */
export function PageHeader({ title, kicker, lead, breadcrumbs, children }: PageHeaderProps): ReactElement {
  return (
    <header className="page-header">
      {breadcrumbs && breadcrumbs.length > 0 ? <Breadcrumbs items={breadcrumbs} /> : null}
      {kicker ? <p className="page-header__kicker">{kicker}</p> : null}
      <h1 className="page-header__title">{title}</h1>
      {lead ? <p className="page-header__lead">{lead}</p> : null}
      {children}
    </header>
  );
}
