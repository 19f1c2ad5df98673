import { CATEGORY_FRAGMENT, PERSON_REF_FRAGMENT, type CategoryData, type PersonRefData, type ContentStatus } from './common.ts';
import {
  composeDocument,
  listKeysQuery,
  defineFragment,
  ENTRY_BATCH_SIZE,
  LIST_PAGE_SIZE,
  CARD_BATCH_SIZE,
  type ConnectionPage,
  type ItemField,
  type PagedList,
} from './document.ts';
import { DOCUMENT_FILE_FRAGMENT, type DocumentFileData } from './documents.ts';

export type PublicationCardData = {
  /** Selected so the build can leave drafts out (cli/content/drafts.ts). */
  status?: ContentStatus;
  id: string;
  slug: string;
  title: string;
  updatedAt: string;
  year: number;
  publisher: string;
  category: CategoryData;
  authors: PersonRefData[];
};

export const PUBLICATION_CARD_FRAGMENT = defineFragment(
  `
fragment PublicationCardFields on Publication {
  status
  id
  slug
  title
  updatedAt
  year
  publisher
  category {
    ...CategoryFields
  }
  authors {
    ...PersonRefFields
  }
}`,
  [CATEGORY_FRAGMENT, PERSON_REF_FRAGMENT],
);

export type PublicationDetailData = PublicationCardData & {
  abstract: string;
  doi: string | null;
  file: DocumentFileData | null;
};

export const PUBLICATION_DETAIL_FRAGMENT = defineFragment(
  `
fragment PublicationDetailFields on Publication {
  ...PublicationCardFields
  abstract
  doi
  file {
    ...DocumentFileFields
  }
}`,
  [PUBLICATION_CARD_FRAGMENT, DOCUMENT_FILE_FRAGMENT],
);

/** /publications and its later pages (the API sorts by year, newest first), grouped by year on the page. */
export const PUBLICATIONS_INDEX_QUERY = composeDocument(
  `
query PublicationsIndex($first: Int = ${LIST_PAGE_SIZE}, $after: String) {
  publications(first: $first, after: $after) {
    nodes {
      ...PublicationCardFields
    }
    totalCount
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}`,
  [PUBLICATION_CARD_FRAGMENT],
);

export type PublicationsIndexResult = { publications: PagedList<PublicationCardData> };

/** /publication/:category and its later pages; the category's title comes from the site data. */
export const PUBLICATION_CATEGORY_QUERY = composeDocument(
  `
query PublicationCategory($category: String!, $first: Int = ${LIST_PAGE_SIZE}, $after: String) {
  publications(category: $category, first: $first, after: $after) {
    nodes {
      ...PublicationCardFields
    }
    totalCount
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}`,
  [PUBLICATION_CARD_FRAGMENT],
);

export type PublicationCategoryResult = { publications: PagedList<PublicationCardData> };

/** /publication/:category/:slug */
export const PUBLICATION_QUERY = composeDocument(
  `
query Publication($category: String!, $slug: String!) {
  publication(category: $category, slug: $slug) {
    ...PublicationDetailFields
  }
}`,
  [PUBLICATION_DETAIL_FRAGMENT],
);

export type PublicationResult = { publication: PublicationDetailData | null };

/** Every publication in full, page by page: the build's source for publication pages. */
export const PUBLICATION_ENTRIES_QUERY = composeDocument(
  `
query PublicationEntries($first: Int = ${ENTRY_BATCH_SIZE}, $after: String) {
  publications(first: $first, after: $after) {
    nodes {
      ...PublicationDetailFields
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}`,
  [PUBLICATION_DETAIL_FRAGMENT],
);

export type PublicationEntriesResult = { publications: ConnectionPage<PublicationDetailData> };

/** What names a publication's page. */
export type PublicationRefData = { status?: ContentStatus; id: string; slug: string; category: { slug: string } };

/** Every publication's page, page by page: a shard's list of publication pages (site/build/items.ts). */
export const PUBLICATION_REFS_QUERY = `
query PublicationRefs($first: Int = ${CARD_BATCH_SIZE}, $after: String) {
  publications(first: $first, after: $after) {
    nodes {
      status
      id
      slug
      category {
        slug
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
`;

export type PublicationRefsResult = { publications: ConnectionPage<PublicationRefData> };

/** Publications in full by category and slug, many at once: a shard's source for its own publication pages. */
export const PUBLICATIONS_BY_SLUG: ItemField = {
  operation: 'PublicationsBySlug',
  field: 'publication',
  args: ['category', 'slug'],
  fragment: PUBLICATION_DETAIL_FRAGMENT,
  perRequest: 20,
};

/** The slugs of every publication category: the build's source for category pages. */
export const PUBLICATION_CATEGORIES_QUERY = `
query PublicationCategorySlugs {
  publicationCategories {
    slug
  }
}
`;

export type PublicationCategoriesResult = { publicationCategories: { slug: string }[] };

/** The list's keys: which items each list page shows, for an update in place (site/build/list-entries.ts). */
export const PUBLICATIONS_INDEX_KEYS_QUERY = listKeysQuery('PublicationsIndexKeys', 'publications');
