import { PERSON_REF_FRAGMENT, type PersonRefData, type ContentStatus } from './common.ts';
import { composeDocument, listKeysQuery, LIST_PAGE_SIZE, type PagedList } from './document.ts';

export type CourseData = {
  /** Selected so the build can leave drafts out (cli/content/drafts.ts). */
  status?: ContentStatus;
  id: string;
  slug: string;
  title: string;
  updatedAt: string;
  code: string;
  level: string;
  credits: number;
  period: string;
  language: string;
  description: string;
  teachers: PersonRefData[];
};

/** /courses and its later pages: the API sorts courses by code, which is how students look them up. */
export const COURSES_QUERY = composeDocument(
  `
query Courses($first: Int = ${LIST_PAGE_SIZE}, $after: String) {
  courses(first: $first, after: $after) {
    totalCount
    pageInfo {
      hasNextPage
      endCursor
    }
    nodes {
      id
      status
      slug
      title
      updatedAt
      code
      level
      credits
      period
      language
      description
      teachers {
        ...PersonRefFields
      }
    }
  }
}`,
  [PERSON_REF_FRAGMENT],
);

export type CoursesResult = { courses: PagedList<CourseData> };

/** The list's keys: which items each list page shows, for an update in place (site/build/list-entries.ts). */
export const COURSES_KEYS_QUERY = listKeysQuery('CoursesKeys', 'courses');
