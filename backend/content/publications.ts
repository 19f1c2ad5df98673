/**
 * Sample publications: 32 in four categories, 2019–2026, written by the institute's staff. Reports, theses
 * and half of the articles carry a PDF. One publication is a draft.
 */
import type { MediaRegistry } from './media-refs.ts';
import type { CategoryEntry, DocumentEntry, PersonEntry, PublicationEntry, Status } from './types.ts';
import { PUBLICATION_CATEGORIES, PUBLICATION_FILE_CATEGORY } from './categories.ts';
import { createRandom, hashString, pickAt } from './random.ts';
import { TOPICS, capitalize, composeSentences } from './prose.ts';
import { createSlugScope } from './slugs.ts';

const TITLES: Readonly<Record<string, readonly string[]>> = {
  articles: [
    'Towards a practice of {topic}',
    '{topic} as method: notes from the studio',
    'Listening closely: {topic} in public space',
    'After the screen: {topic} and the gallery',
    'Materials and memory in {topic}',
  ],
  books: ['{topic}: a reader', 'Working with {topic}', '{topic}: histories and futures', 'Studio notes on {topic}'],
  reports: [
    '{topic} in cultural institutions',
    'Mapping {topic} in the Nordic region',
    'Evaluation of the {topic} pilot',
    'Sustainable {topic}: a survey',
  ],
  theses: [
    'Thinking with {topic}: a practice-based study',
    'Between tool and material: {topic} in artistic research',
    'Unfinished systems: {topic} and authorship',
  ],
};

const PUBLISHERS: Readonly<Record<string, readonly string[]>> = {
  articles: ['Journal of Art and Computation', 'Media Practice Review', 'Studies in Sound and Space', 'Northlight Papers'],
  books: ['Northlight Press', 'Harbour Academic Publishing'],
  reports: ['Northlight Institute'],
  theses: ['Northlight Institute'],
};

const COUNT = 32;

/** Builds the sample publications; authors are drawn from `people`. */
export function createPublications(media: MediaRegistry, people: readonly PersonEntry[]): PublicationEntry[] {
  const scopes = new Map(PUBLICATION_CATEGORIES.map((c) => [c.slug, createSlugScope()]));
  const fellows = people.filter((p) => /PhD|Postdoctoral/.test(p.role));
  const researchers = people.filter((p) => p.department === 'Research' || p.department === 'Education');
  const list: PublicationEntry[] = [];
  for (let i = 0; i < COUNT; i++) {
    const category = pickAt(PUBLICATION_CATEGORIES, i);
    const random = createRandom(hashString(`publication-authors:${i}`));
    const authors = category.slug === 'theses' ? [pickAt(fellows, i)] : random.sample(researchers, random.int(1, 3));
    list.push(
      createPublication({
        index: i,
        category,
        topic: pickAt(TOPICS, i * 13 + 5),
        year: 2019 + ((i * 5) % 8),
        authors,
        slugFor: scopes.get(category.slug) ?? createSlugScope(),
        media,
        status: i === 13 ? 'DRAFT' : 'PUBLISHED',
      }),
    );
  }
  return list;
}

// --- internal ---

interface PublicationSeed {
  readonly index: number;
  readonly category: CategoryEntry;
  readonly topic: string;
  readonly year: number;
  readonly authors: readonly PersonEntry[];
  readonly slugFor: (title: string) => string;
  readonly media: MediaRegistry;
  readonly status: Status;
}

/** Builds one publication, with a PDF for reports, theses and one in eight articles. */
function createPublication(seed: PublicationSeed): PublicationEntry {
  const { index, category, topic, year } = seed;
  const cat = category.slug;
  const title = capitalize(pickAt(TITLES[cat] ?? TITLES['articles'] ?? [], Math.floor(index / 4)).replace('{topic}', topic));
  const slug = seed.slugFor(title);
  const random = createRandom(hashString(`publication:${cat}:${index}`));
  const withFile = cat === 'reports' || cat === 'theses' || (cat === 'articles' && index % 8 === 0);
  const updatedAt = `${Math.min(year + 1, 2026)}-0${1 + (index % 9)}-15T09:00:00Z`;
  return {
    id: `publication-${index + 1}`,
    slug,
    title,
    updatedAt,
    status: seed.status,
    category,
    authors: seed.authors,
    year,
    abstract: composeSentences(random, topic, 4),
    doi:
      cat === 'theses' || (cat === 'reports' && index % 2 === 0)
        ? null
        : `10.5555/northlight.${year}.${String(index + 1).padStart(4, '0')}`,
    publisher: random.pick(PUBLISHERS[cat] ?? ['Northlight Institute']),
    file: withFile ? createPublicationFile(seed, title, slug, updatedAt) : null,
  };
}

function createPublicationFile(seed: PublicationSeed, title: string, slug: string, publishedAt: string): DocumentEntry {
  const names = seed.authors.map((a) => a.name).join(', ');
  const { url, size } = seed.media.pdf(`publications/${seed.category.slug}`, slug, title, `${names} (${seed.year})`);
  return {
    id: `publication-file-${seed.index + 1}`,
    slug,
    title,
    updatedAt: publishedAt,
    status: seed.status,
    category: PUBLICATION_FILE_CATEGORY,
    url,
    mimeType: 'application/pdf',
    size,
    publishedAt,
    description: `Full text of “${title}” (${seed.year}).`,
  };
}
