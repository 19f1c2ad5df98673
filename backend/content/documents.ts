/**
 * Sample documents: thirty PDFs in four categories (annual reports, policies, forms, plans). Each URL
 * serves a real one-page PDF whose byte length is the document's `size`.
 */
import type { MediaRegistry } from './media-refs.ts';
import type { CategoryEntry, DocumentEntry } from './types.ts';
import { DOCUMENT_CATEGORIES } from './categories.ts';
import { pickAt } from './random.ts';
import { addDays, slugify } from './slugs.ts';

const TITLES: Readonly<Record<string, readonly string[]>> = {
  'annual-reports': [
    'Annual report 2019',
    'Annual report 2020',
    'Annual report 2021',
    'Annual report 2022',
    'Annual report 2023',
    'Annual report 2024',
    'Annual report 2025',
  ],
  policies: [
    'Open access policy',
    'Research ethics guidelines',
    'Environmental policy',
    'Data protection policy',
    'Guidelines for the use of studios',
    'Collection and acquisitions policy',
    'Safety regulations for labs',
    'Code of conduct',
    'Equality and inclusion policy',
  ],
  forms: [
    'Application for studio time',
    'Equipment loan agreement',
    'Travel reimbursement form',
    'Archive visit request',
    'Residency application form',
    'Image permission request',
    'Conflict of interest declaration',
  ],
  plans: [
    'Strategy 2024–2028',
    'Action plan for sustainability 2025',
    'Digital infrastructure plan',
    'Accessibility action plan',
    'Communications strategy',
    'Research infrastructure roadmap',
    'Collection digitisation plan',
  ],
};

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  'annual-reports': 'Activities, key figures and audited accounts for the year.',
  policies: 'Adopted by the board; applies to all staff, students and guests.',
  forms: 'Fill in, sign and send to the administration office.',
  plans: 'Sets out goals, measures and responsibilities for the period.',
};

/** Builds the sample documents (unsorted; the store groups them by category, newest first). */
export function createDocuments(media: MediaRegistry): DocumentEntry[] {
  const documents: DocumentEntry[] = [];
  for (const category of DOCUMENT_CATEGORIES) {
    (TITLES[category.slug] ?? []).forEach((title, i) => {
      documents.push(createDocument(media, category, title, publishedDate(category.slug, title, i), documents.length));
    });
  }
  return documents;
}

// --- internal ---

/** Builds one document and registers its PDF. */
function createDocument(media: MediaRegistry, category: CategoryEntry, title: string, publishedOn: string, index: number): DocumentEntry {
  const slug = slugify(title);
  const { url, size } = media.pdf('documents', slug, title, `Northlight Institute for Art, Media and Technology, ${publishedOn}`);
  const publishedAt = `${publishedOn}T10:00:00Z`;
  return {
    id: `document-${index + 1}`,
    slug,
    title,
    updatedAt: publishedAt,
    status: 'PUBLISHED',
    category,
    url,
    mimeType: 'application/pdf',
    size,
    publishedAt,
    description: `${title}. ${DESCRIPTIONS[category.slug] ?? pickAt(Object.values(DESCRIPTIONS), index)}`,
  };
}

function publishedDate(categorySlug: string, title: string, i: number): string {
  const year = /(\d{4})$/.exec(title)?.[1];
  // Annual reports appear when the accounts are approved, in spring of the following year.
  if (categorySlug === 'annual-reports' && year) return `${Number(year) + 1}-03-31`;
  return addDays('2021-01-11', i * 211 + categorySlug.length * 17);
}
