import type { ImageSource } from '../../runtime/shared/images.ts';
import { defineFragment } from './document.ts';

/**
 * Fragments several areas share. Result types are written beside the selections they describe, and
 * declared as type aliases (not interfaces) so that they stay assignable to the runtime's `SiteData`
 * record type where they travel as site data.
 */

/** An item's publication status (site/schema.graphql `Status`). */
export type ContentStatus = 'PUBLISHED' | 'DRAFT';

/**
 * An image as the backend gives it; the build resolves it (runtime/shared/images.ts): `url` becomes a
 * metadata-free fallback, `width` and `height` the real file's, and `sources` its derivatives.
 */
export type ImageData = {
  url: string;
  alt: string;
  width: number;
  height: number;
  sources?: ImageSource[];
};

export const IMAGE_FRAGMENT = defineFragment(`
fragment ImageFields on Image {
  url
  alt
  width
  height
}`);

export type CategoryData = {
  slug: string;
  title: string;
  description: string;
};

export const CATEGORY_FRAGMENT = defineFragment(`
fragment CategoryFields on Category {
  slug
  title
  description
}`);

/**
 * A person named in a byline or a team list. There are no person pages: `slug` links the name to the
 * person's entry in the people directory (`/about/people#person-{slug}`).
 */
export type PersonRefData = {
  id: string;
  slug: string;
  name: string;
  role: string;
};

export const PERSON_REF_FRAGMENT = defineFragment(`
fragment PersonRefFields on Person {
  id
  slug
  name
  role
}`);

/** A person as the people directory shows them. */
export type PersonCardData = PersonRefData & {
  department: string;
  email: string;
  photo: ImageData | null;
};

export const PERSON_CARD_FRAGMENT = defineFragment(
  `
fragment PersonCardFields on Person {
  ...PersonRefFields
  department
  email
  photo {
    ...ImageFields
  }
}`,
  [PERSON_REF_FRAGMENT, IMAGE_FRAGMENT],
);
