import type { ContentStatus } from './common.ts';
import { composeDocument, defineFragment } from './document.ts';

/** Slugs of the editorial pages behind the about routes (the backend's `page(slug)`). */
export const PAGE_SLUGS = {
  about: 'about',
  people: 'people',
  contact: 'contact',
  podcast: 'podcast',
  aboutLarge: 'about-large',
  artisticResearch: 'artistic-research',
} as const;

export type PageSectionData = {
  id: string;
  title: string;
  body: string;
};

export type PageData = {
  /** Selected so the build can leave drafts out (cli/content/drafts.ts). */
  status?: ContentStatus;
  id: string;
  slug: string;
  title: string;
  summary: string;
  updatedAt: string;
  body: string;
  sections: PageSectionData[];
};

export const PAGE_FRAGMENT = defineFragment(`
fragment PageFields on Page {
  status
  id
  slug
  title
  summary
  updatedAt
  body
  sections {
    id
    title
    body
  }
}`);

/** /about, /about/contact and /about/about-large: an editorial page and nothing else. */
export const PAGE_QUERY = composeDocument(
  `
query EditorialPage($slug: String!) {
  page(slug: $slug) {
    ...PageFields
  }
}`,
  [PAGE_FRAGMENT],
);

export type PageResult = { page: PageData | null };
