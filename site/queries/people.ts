import { PERSON_CARD_FRAGMENT, type PersonCardData } from './common.ts';
import { composeDocument, DIRECTORY_SIZE, type ListPage } from './document.ts';
import { PAGE_FRAGMENT, PAGE_SLUGS, type PageData } from './pages.ts';

/** /about/people: the page's own text, then the directory (the API sorts people by name). */
export const ABOUT_PEOPLE_QUERY = composeDocument(
  `
query AboutPeople {
  page(slug: "${PAGE_SLUGS.people}") {
    ...PageFields
  }
  people(first: ${DIRECTORY_SIZE}) {
    totalCount
    nodes {
      ...PersonCardFields
    }
  }
}`,
  [PAGE_FRAGMENT, PERSON_CARD_FRAGMENT],
);

export type AboutPeopleResult = {
  page: PageData | null;
  people: ListPage<PersonCardData>;
};
