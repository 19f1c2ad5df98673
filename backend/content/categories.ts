/**
 * Category sets for events, publications and documents. Shared by the sample and the scaled content so
 * that category routes (`/events/{category}`, `/publication/{category}`) are the same at every scale.
 */
import type { CategoryEntry } from './types.ts';

/** Event categories, in display order. */
export const EVENT_CATEGORIES: readonly CategoryEntry[] = [
  {
    id: 'event-category-lectures',
    slug: 'lectures',
    title: 'Lectures',
    description: 'Evening lectures and talks by staff and invited guests.',
  },
  {
    id: 'event-category-exhibitions',
    slug: 'exhibitions',
    title: 'Exhibitions',
    description: 'Exhibitions in the main hall, the project space and online.',
  },
  { id: 'event-category-concerts', slug: 'concerts', title: 'Concerts', description: 'Concerts and performances in the black box.' },
  {
    id: 'event-category-symposia',
    slug: 'symposia',
    title: 'Symposia',
    description: 'One- and two-day symposia bringing researchers and artists together.',
  },
];

/** Publication categories, in display order. */
export const PUBLICATION_CATEGORIES: readonly CategoryEntry[] = [
  {
    id: 'publication-category-articles',
    slug: 'articles',
    title: 'Articles',
    description: 'Peer-reviewed journal articles and book chapters.',
  },
  { id: 'publication-category-books', slug: 'books', title: 'Books', description: 'Monographs, edited volumes and exhibition catalogues.' },
  { id: 'publication-category-reports', slug: 'reports', title: 'Reports', description: 'Research reports and policy papers.' },
  { id: 'publication-category-theses', slug: 'theses', title: 'Theses', description: 'Doctoral theses defended at the institute.' },
];

/** Document categories, in the order the documents list groups them. */
export const DOCUMENT_CATEGORIES: readonly CategoryEntry[] = [
  {
    id: 'document-category-annual-reports',
    slug: 'annual-reports',
    title: 'Annual reports',
    description: 'Yearly reports on activities and accounts.',
  },
  { id: 'document-category-policies', slug: 'policies', title: 'Policies', description: 'Policies and guidelines adopted by the board.' },
  { id: 'document-category-forms', slug: 'forms', title: 'Forms', description: 'Forms for applications, loans and reimbursements.' },
  { id: 'document-category-plans', slug: 'plans', title: 'Plans and strategies', description: 'Strategy documents and action plans.' },
];

/**
 * The category of the PDFs attached to publications. These documents are reached through
 * `Publication.file`, not listed among the institute's documents.
 */
export const PUBLICATION_FILE_CATEGORY: CategoryEntry = {
  id: 'document-category-publication-files',
  slug: 'publication-files',
  title: 'Publication files',
  description: 'Full texts of publications.',
};
