import { IMAGE_FRAGMENT, PERSON_REF_FRAGMENT, type ImageData, type PersonRefData, type ContentStatus } from './common.ts';
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
import { PAGE_FRAGMENT, PAGE_SLUGS, type PageData } from './pages.ts';
import { PUBLICATION_CARD_FRAGMENT, type PublicationCardData } from './publications.ts';

export type ProjectCardData = {
  /** Selected so the build can leave drafts out (cli/content/drafts.ts). */
  status?: ContentStatus;
  id: string;
  slug: string;
  title: string;
  updatedAt: string;
  summary: string;
  startDate: string;
  endDate: string | null;
  image: ImageData | null;
};

export const PROJECT_CARD_FRAGMENT = defineFragment(
  `
fragment ProjectCardFields on ResearchProject {
  status
  id
  slug
  title
  updatedAt
  summary
  startDate
  endDate
  image {
    ...ImageFields
  }
}`,
  [IMAGE_FRAGMENT],
);

export type ProjectDetailData = ProjectCardData & {
  body: string;
  people: PersonRefData[];
  publications: PublicationCardData[];
};

export const PROJECT_DETAIL_FRAGMENT = defineFragment(
  `
fragment ProjectDetailFields on ResearchProject {
  ...ProjectCardFields
  body
  people {
    ...PersonRefFields
  }
  publications {
    ...PublicationCardFields
  }
}`,
  [PROJECT_CARD_FRAGMENT, PERSON_REF_FRAGMENT, PUBLICATION_CARD_FRAGMENT],
);

/** /research and its later pages: the newest projects first (the API sorts by start date). */
export const RESEARCH_INDEX_QUERY = composeDocument(
  `
query ResearchIndex($first: Int = ${LIST_PAGE_SIZE}, $after: String) {
  researchProjects(first: $first, after: $after) {
    nodes {
      ...ProjectCardFields
    }
    totalCount
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}`,
  [PROJECT_CARD_FRAGMENT],
);

export type ResearchIndexResult = { researchProjects: PagedList<ProjectCardData> };

/** /research/:slug */
export const RESEARCH_PROJECT_QUERY = composeDocument(
  `
query ResearchProject($slug: String!) {
  researchProject(slug: $slug) {
    ...ProjectDetailFields
  }
}`,
  [PROJECT_DETAIL_FRAGMENT],
);

export type ResearchProjectResult = { researchProject: ProjectDetailData | null };

/** Every project in full, page by page: the build's source for project pages. */
export const RESEARCH_PROJECT_ENTRIES_QUERY = composeDocument(
  `
query ResearchProjectEntries($first: Int = ${ENTRY_BATCH_SIZE}, $after: String) {
  researchProjects(first: $first, after: $after) {
    nodes {
      ...ProjectDetailFields
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}`,
  [PROJECT_DETAIL_FRAGMENT],
);

export type ResearchProjectEntriesResult = { researchProjects: ConnectionPage<ProjectDetailData> };

/** What names a project's page. */
export type ProjectRefData = { status?: ContentStatus; id: string; slug: string };

/** Every project's page, page by page: a shard's list of project pages (site/build/items.ts). */
export const RESEARCH_PROJECT_REFS_QUERY = `
query ResearchProjectRefs($first: Int = ${CARD_BATCH_SIZE}, $after: String) {
  researchProjects(first: $first, after: $after) {
    nodes {
      status
      id
      slug
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
`;

export type ResearchProjectRefsResult = { researchProjects: ConnectionPage<ProjectRefData> };

/** Projects in full by slug, many at once: a shard's source for its own project pages. */
export const RESEARCH_PROJECTS_BY_SLUG: ItemField = {
  operation: 'ResearchProjectsBySlug',
  field: 'researchProject',
  args: ['slug'],
  fragment: PROJECT_DETAIL_FRAGMENT,
  perRequest: 12,
};

/**
 * /about/artistic-research: `researchProjects` has no filter for artistic projects, so the page asks for
 * one full batch with the flag and keeps the artistic ones when it renders.
 */
export const ARTISTIC_RESEARCH_QUERY = composeDocument(
  `
query ArtisticResearch {
  page(slug: "${PAGE_SLUGS.artisticResearch}") {
    ...PageFields
  }
  researchProjects(first: ${ENTRY_BATCH_SIZE}) {
    nodes {
      ...ProjectCardFields
      artistic
    }
  }
}`,
  [PAGE_FRAGMENT, PROJECT_CARD_FRAGMENT],
);

export type ArtisticResearchResult = {
  page: PageData | null;
  researchProjects: { nodes: (ProjectCardData & { artistic: boolean })[] };
};

/** The list's keys: which items each list page shows, for an update in place (site/build/list-entries.ts). */
export const RESEARCH_INDEX_KEYS_QUERY = listKeysQuery('ResearchIndexKeys', 'researchProjects');
