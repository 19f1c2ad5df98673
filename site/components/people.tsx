import { Fragment, type ReactElement } from 'react';
import { Link } from '../../runtime/index.ts';
import { personAnchor, personHref } from '../data/people-links.ts';
import type { PersonCardData, PersonRefData } from '../queries/common.ts';
import { Picture } from './image.tsx';

export interface PeopleNamesProps {
  people: readonly PersonRefData[];
  /** Link each name to the person's entry in the people directory. */
  linked?: boolean;
}

/** Names as a byline: `Ada Lovelace, Alan Turing and Grace Hopper`. */
export function PeopleNames({ people, linked = false }: PeopleNamesProps): ReactElement | null {
  if (people.length === 0) return null;
  return (
    <span className="people-names">
      {people.map((person, i) => (
        <Fragment key={person.id}>
          {i === 0 ? '' : i === people.length - 1 ? ' and ' : ', '}
          {linked ? <Link href={personHref(person)}>{person.name}</Link> : person.name}
        </Fragment>
      ))}
    </span>
  );
}

/** Names with their roles, for project teams and course teachers. */
export function PeopleList({ people }: { people: readonly PersonRefData[] }): ReactElement | null {
  if (people.length === 0) return null;
  return (
    <ul className="people-list">
      {people.map((person) => (
        <li key={person.id} className="people-list__item">
          <Link href={personHref(person)} className="people-list__name">
            {person.name}
          </Link>
          {person.role ? <span className="people-list__role">{person.role}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** One entry of the people directory. */
export function PersonCard({ person }: { person: PersonCardData }): ReactElement {
  return (
    <article className="person-card" id={personAnchor(person)}>
      {person.photo ? (
        <Picture image={person.photo} slot="portrait" fallbackAlt={`Portrait of ${person.name}`} className="person-card__photo" />
      ) : (
        <span className="person-card__initials" aria-hidden="true">
          {initials(person.name)}
        </span>
      )}
      <div className="person-card__body">
        <h3 className="person-card__name">{person.name}</h3>
        <p className="person-card__role">{person.role}</p>
        <p className="person-card__department">{person.department}</p>
        {person.email ? (
          <p className="person-card__email">
            <a href={`mailto:${person.email}`}>{person.email}</a>
          </p>
        ) : null}
      </div>
    </article>
  );
}

// Up to two initials, so a missing photo still gives the card its visual anchor.
function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .filter((_, i, all) => i === 0 || i === all.length - 1)
    .join('');
}
