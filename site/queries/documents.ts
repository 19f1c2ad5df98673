import { CATEGORY_FRAGMENT, type CategoryData, type ContentStatus } from './common.ts';
import { composeDocument, listKeysQuery, defineFragment, LIST_PAGE_SIZE, type PagedList } from './document.ts';

/** A downloadable file: enough for a link that says what it is and how big it is. */
export type DocumentFileData = {
  /** Selected so the build can leave drafts out (cli/content/drafts.ts). */
  status?: ContentStatus;
  id: string;
  title: string;
  url: string;
  mimeType: string;
  size: number;
};

export const DOCUMENT_FILE_FRAGMENT = defineFragment(`
fragment DocumentFileFields on Document {
  status
  id
  title
  url
  mimeType
  size
}`);

export type DocumentData = DocumentFileData & {
  slug: string;
  updatedAt: string;
  description: string;
  publishedAt: string;
  category: CategoryData;
};

export const DOCUMENT_FRAGMENT = defineFragment(
  `
fragment DocumentFields on Document {
  ...DocumentFileFields
  slug
  updatedAt
  description
  publishedAt
  category {
    ...CategoryFields
  }
}`,
  [DOCUMENT_FILE_FRAGMENT, CATEGORY_FRAGMENT],
);

/** /documents and its later pages: the API orders by category, then newest first, so grouping keeps that order. */
export const DOCUMENTS_QUERY = composeDocument(
  `
query Documents($first: Int = ${LIST_PAGE_SIZE}, $after: String) {
  documents(first: $first, after: $after) {
    nodes {
      ...DocumentFields
    }
    totalCount
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}`,
  [DOCUMENT_FRAGMENT],
);

export type DocumentsResult = { documents: PagedList<DocumentData> };

/** The list's keys: which items each list page shows, for an update in place (site/build/list-entries.ts). */
export const DOCUMENTS_KEYS_QUERY = listKeysQuery('DocumentsKeys', 'documents');
