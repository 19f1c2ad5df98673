import type { ReactElement } from 'react';
import { Link } from '../../runtime/index.ts';
import type { CategoryData } from '../queries/common.ts';

export interface CategoryNavProps {
  /** Names the navigation for screen readers, e.g. "Event categories". */
  label: string;
  /** Path of the section's overview, the "All" entry. */
  allHref: string;
  /** Path prefix of a category page: `/events` gives `/events/{slug}`. */
  categoryBase: string;
  categories: readonly CategoryData[];
  /** Slug of the category being shown; none on the overview. */
  current?: string;
}

/** Filter-style links between a section's overview and its category pages. */
export function CategoryNav({ label, allHref, categoryBase, categories, current }: CategoryNavProps): ReactElement | null {
  if (categories.length === 0) return null;
  return (
    <nav className="category-nav" aria-label={label}>
      <ul className="category-nav__list">
        <li>
          <Link href={allHref} className="category-nav__link" aria-current={current === undefined ? 'page' : undefined}>
            All
          </Link>
        </li>
        {categories.map((category) => (
          <li key={category.slug}>
            <Link
              href={`${categoryBase}/${category.slug}`}
              className="category-nav__link"
              aria-current={current === category.slug ? 'page' : undefined}
            >
              {category.title}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
