import type { ReactElement } from 'react';
import { Link } from '../../runtime/index.ts';
import type { Crumb } from '../data/trails.ts';

export type { Crumb };

/** The trail from the home page to the current one, for pages deeper than one level. */
export function Breadcrumbs({ items }: { items: readonly Crumb[] }): ReactElement {
  return (
    <nav className="breadcrumbs" aria-label="Breadcrumb">
      <ol className="breadcrumbs__list">
        <li className="breadcrumbs__item">
          <Link href="/">Home</Link>
        </li>
        {items.map((item) => (
          <li key={item.href ?? item.label} className="breadcrumbs__item">
            {item.href ? <Link href={item.href}>{item.label}</Link> : <span aria-current="page">{item.label}</span>}
          </li>
        ))}
      </ol>
    </nav>
  );
}
