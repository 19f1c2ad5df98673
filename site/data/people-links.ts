import { contentId } from '../../runtime/shared/content-ids.ts';
import type { PersonRefData } from '../queries/common.ts';

/** Where a person's name links to: their entry in the people directory (there are no person pages). */
export function personHref(person: Pick<PersonRefData, 'slug'>): string {
  return `/about/people#${personAnchor(person)}`;
}

/** The id of a person's entry on /about/people. */
export function personAnchor(person: Pick<PersonRefData, 'slug'>): string {
  return contentId(`person-${person.slug}`);
}
