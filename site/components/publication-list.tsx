import type { ReactElement } from 'react';
import { Link } from '../../runtime/index.ts';
import { groupBy } from '../data/grouping.ts';
import type { PublicationCardData } from '../queries/publications.ts';
import { PeopleNames } from './people.tsx';
import { contentId } from '../../runtime/shared/content-ids.ts';

export interface PublicationListProps {
  publications: readonly PublicationCardData[];
  /** Category pages leave out the category label, which would repeat on every entry. */
  showCategory?: boolean;
  headingLevel?: 2 | 3;
  /** Lists grouped under a year heading leave out the year, which would repeat on every entry. */
  showYear?: boolean;
}

/** Publications as a bibliography: title, authors, publisher and year. */
export function PublicationList({
  publications,
  showCategory = true,
  headingLevel = 3,
  showYear = true,
}: PublicationListProps): ReactElement {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <ol className="publication-list">
      {publications.map((publication) => (
        <li key={publication.id} className="publication-list__item">
          <Heading className="publication-list__title">
            <Link href={`/publication/${publication.category.slug}/${publication.slug}`}>{publication.title}</Link>
          </Heading>
          <p className="publication-list__meta">
            <PeopleNames people={publication.authors} />
            {publication.publisher ? <span className="publication-list__publisher">{publication.publisher}</span> : null}
            {showYear ? <span className="publication-list__year">{publication.year}</span> : null}
            {showCategory ? <span className="tag">{publication.category.title}</span> : null}
          </p>
        </li>
      ))}
    </ol>
  );
}

/** Publications under one `<h2>` per year, newest year first (the API's order). */
export function PublicationsByYear({
  publications,
  showCategory = true,
}: Pick<PublicationListProps, 'publications' | 'showCategory'>): ReactElement {
  return (
    <div className="year-groups">
      {groupBy(publications, (p) => p.year).map((group) => (
        <section key={group.key} className="year-group" aria-labelledby={contentId(`year-${group.key}`)}>
          <h2 id={contentId(`year-${group.key}`)} className="year-group__year">
            {group.key}
          </h2>
          <PublicationList publications={group.items} showCategory={showCategory} showYear={false} />
        </section>
      ))}
    </div>
  );
}
