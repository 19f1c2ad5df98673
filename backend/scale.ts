/**
 * A deterministic synthetic site of about N pages, for benchmarks: most pages are news (70%), events (12%),
 * publications (12%) and research projects (6%); people, courses, documents, the podcast and the about
 * pages stay at their sample sizes or modestly above. Building 50,000 pages takes well under a second.
 */
import type { Content, ImageRef, PersonEntry, PublicationEntry, Status } from './content/types.ts';
import { DOCUMENT_CATEGORIES, EVENT_CATEGORIES, PUBLICATION_CATEGORIES, PUBLICATION_FILE_CATEGORY } from './content/categories.ts';
import { createCourses } from './content/courses.ts';
import { createDocuments } from './content/documents.ts';
import { eventTitle } from './content/events.ts';
import { createMediaRegistry, type MediaOptions, type MediaRegistry } from './content/media-refs.ts';
import { createEpisodes } from './content/podcast.ts';
import { TOPICS, capitalize } from './content/prose.ts';
import { pickAt } from './content/random.ts';
import { HOME, PAGES, SITE } from './content/site.ts';
import { addDays, slugify } from './content/slugs.ts';
import { ScaledEvent, ScaledNews, ScaledProject, ScaledPublication, type ScaleContext } from './scale-entries.ts';

/** Pages that exist at any scale: home, six list pages, the about pages and the category list pages. */
export const FIXED_SITE_PAGES = 1 + 6 + PAGES.length + EVENT_CATEGORIES.length + PUBLICATION_CATEGORIES.length;

/**
 * The number of site pages a content set produces for anonymous visitors: the fixed pages plus one per
 * published news item, event, publication and research project.
 */
export function countSitePages(content: Content): number {
  const published = (items: readonly { status: Status }[]): number => items.filter((i) => i.status !== 'DRAFT').length;
  return (
    1 +
    6 +
    content.pages.length +
    content.eventCategories.length +
    content.publicationCategories.length +
    published(content.news) +
    published(content.events) +
    published(content.publications) +
    published(content.projects)
  );
}

/**
 * Creates a synthetic site with about `pages` site pages (exactly, for pages >= FIXED_SITE_PAGES), plus
 * one extra draft news item per 1,000 news items for editor preview. Deterministic: two calls with the same
 * `pages` give equal content. `options.photos`: its images are camera photos (media-refs.ts).
 * @throws RangeError when pages is not a non-negative integer
 */
export function createScaledContent(pages: number, options: MediaOptions = {}): Content {
  if (!Number.isInteger(pages) || pages < 0) throw new RangeError(`Expected scale to be an integer from 0 up, got ${pages}.`);
  const items = Math.max(0, pages - FIXED_SITE_PAGES);
  const newsCount = Math.round(items * 0.7);
  const eventCount = Math.round(items * 0.12);
  const publicationCount = Math.round(items * 0.12);
  const projectCount = items - newsCount - eventCount - publicationCount;
  const media = createMediaRegistry(options);
  const people = createScaledPeople(media, Math.min(200, Math.max(25, Math.round(items / 250))));
  const context: ScaleContext = {
    people,
    publications: [],
    tags: ['research', 'education', 'exhibition', 'archive', 'students', 'partnership'],
  };
  const titles = createTitleCache();

  const news: ScaledNews[] = [];
  const drafts = Math.floor(newsCount / 1000);
  const newsDays = Math.max(660, Math.ceil(newsCount / 5));
  for (let i = 0; i < newsCount + drafts; i++) {
    const draft = i >= newsCount;
    const topic = pickAt(TOPICS, i * 7 + Math.floor(i / 30));
    const { title, slug } = titles.get('news', pickAt(NEWS_TITLES, i), topic, i);
    const date = draft
      ? addDays('2026-10-31', -(i - newsCount))
      : addDays('2026-10-31', -Math.floor((i * newsDays) / Math.max(1, newsCount)));
    const image = i % 4 === 0 ? media.image('news', 'news', slug, `Abstract illustration for “${title}”`) : null;
    news.push(new ScaledNews(i, slug, title, topic, date, image, draft ? 'DRAFT' : 'PUBLISHED', context));
  }

  // Events span a window ending about 20% after "now" (late 2026), so home always has upcoming events.
  const eventDays = Math.max(400, Math.ceil(eventCount / 2));
  const firstEventDay = addDays('2026-11-01', -Math.round(eventDays * 0.8));
  const events = Array.from({ length: eventCount }, (_, i) => {
    const category = pickAt(EVENT_CATEGORIES, i);
    const topic = pickAt(TOPICS, i * 11 + 3);
    const { title, slug } = titles.get(`event-${category.slug}`, eventTitle(category.slug, i, topic), '', i);
    const day = addDays(firstEventDay, Math.floor((i * eventDays) / Math.max(1, eventCount)));
    const image = i % 3 === 0 ? media.image('event', `events/${category.slug}`, slug, `Poster image for “${title}”`) : null;
    return new ScaledEvent(i, slug, title, topic, category, `${day}T${i % 2 === 0 ? '17:00' : '18:30'}:00Z`, image, 'PUBLISHED');
  });

  const publications = Array.from({ length: publicationCount }, (_, i) => {
    const category = pickAt(PUBLICATION_CATEGORIES, i);
    const topic = pickAt(TOPICS, i * 13 + 5);
    const { title, slug } = titles.get(`publication-${category.slug}`, pickAt(PUBLICATION_TITLES, Math.floor(i / 4)), topic, i);
    const year = 2026 - Math.floor((i * 20) / Math.max(1, publicationCount));
    const file = i % 8 === 0 ? createFile(media, category.slug, slug, title, year, i) : null;
    return new ScaledPublication(i, slug, title, topic, category, year, file, 'PUBLISHED', context);
  });
  context.publications.push(...publications);

  const projectDays = Math.max(3650, projectCount);
  const projects = Array.from({ length: projectCount }, (_, i) => {
    const topic = pickAt(TOPICS, i * 17 + 1);
    const { title, slug } = titles.get('project', pickAt(PROJECT_TITLES, i), topic, i);
    const image = media.image('project', 'research', slug, `Image from the project “${title}”`);
    return new ScaledProject(
      i,
      slug,
      title,
      topic,
      addDays('2026-10-01', -Math.floor((i * projectDays) / Math.max(1, projectCount))),
      image,
      context,
    );
  });

  return {
    site: SITE,
    home: HOME,
    people,
    news,
    eventCategories: EVENT_CATEGORIES,
    events,
    publicationCategories: PUBLICATION_CATEGORIES,
    publications,
    courses: createCourses(people),
    projects,
    documentCategories: DOCUMENT_CATEGORIES,
    documents: createDocuments(media),
    episodes: createEpisodes(media),
    pages: PAGES,
    media: media.specs,
  };
}

// --- internal ---

const NEWS_TITLES = [
  'New research group on {topic} launches',
  'Open call: residency in {topic}',
  'Students show new work in {topic}',
  'Workshop series on {topic}',
  'Open studio week: {topic}',
  'Grant awarded for research on {topic}',
  'Archive acquires collection on {topic}',
  'Lecture recordings on {topic} online',
  'Summer school in {topic}',
  'Book launch: essays on {topic}',
  'Visiting researcher explores {topic}',
] as const;
const PUBLICATION_TITLES = [
  'Towards a practice of {topic}',
  '{topic} as method',
  'Notes on {topic}',
  '{topic} in public space',
  'Materials and memory in {topic}',
] as const;
const PROJECT_TITLES = [
  'Studio inquiry into {topic}',
  '{topic} in the city',
  'Archives of {topic}',
  '{topic} and the body',
  'Slow {topic}',
] as const;
const FIRST_NAMES = [
  'Astrid',
  'Bilal',
  'Clara',
  'Dmitri',
  'Eva',
  'Farah',
  'Gustav',
  'Hana',
  'Ivo',
  'Jorunn',
  'Karim',
  'Liv',
  'Magnus',
  'Nadia',
  'Ola',
  'Paula',
  'Reza',
  'Silje',
  'Tariq',
  'Ulrike',
] as const;
const LAST_NAMES = [
  'Aasen',
  'Berger',
  'Castell',
  'Dahl',
  'Eriksen',
  'Fagerli',
  'Grønn',
  'Holm',
  'Iversen',
  'Jansen',
  'Kaur',
  'Lund',
  'Moen',
  'Nygaard',
  'Okafor',
  'Pettersen',
  'Quist',
  'Rossi',
  'Strand',
  'Tanaka',
] as const;
const ROLES = [
  ['Researcher', 'Research'],
  ['PhD Fellow', 'Research'],
  ['Lecturer', 'Education'],
  ['Senior Researcher', 'Research'],
  ['Postdoctoral Fellow', 'Research'],
  ['Studio Technician', 'Studios and Labs'],
  ['Archivist', 'Archive and Library'],
] as const;

/**
 * Templates x topics repeat, so slugs carry the item number, and a title met again gets a part number
 * ("…, part 2"): pages keep distinct titles, as on a real site, and the build's duplicate-title check
 * stays quiet. The slugified base is cached per title because slugify dominates the build time otherwise.
 */
function createTitleCache(): { get(scope: string, template: string, topic: string, index: number): { title: string; slug: string } } {
  const cache = new Map<string, { title: string; base: string; uses: number }>();
  return {
    get(scope, template, topic, index) {
      const key = `${scope}|${template}|${topic}`;
      let entry = cache.get(key);
      if (!entry) {
        const title = capitalize(template.replace('{topic}', topic));
        entry = { title, base: slugify(title), uses: 0 };
        cache.set(key, entry);
      }
      entry.uses++;
      return { title: entry.uses === 1 ? entry.title : `${entry.title}, part ${entry.uses}`, slug: `${entry.base}-${index + 1}` };
    },
  };
}

function createScaledPeople(media: MediaRegistry, count: number): PersonEntry[] {
  return Array.from({ length: count }, (_, i) => {
    // (i mod 20, (7i + i div 20) mod 20) visits all 400 name pairs once before repeating.
    const name = `${pickAt(FIRST_NAMES, i)} ${pickAt(LAST_NAMES, i * 7 + Math.floor(i / 20))}`;
    const slug = `${slugify(name)}${i >= 400 ? `-${i + 1}` : ''}`;
    const [role, department] = pickAt(ROLES, i);
    const topic = pickAt(TOPICS, i * 3);
    const photo: ImageRef = media.image('person', 'people', slug, `Portrait of ${name}`);
    return {
      id: `person-${i + 1}`,
      slug,
      name,
      role,
      department,
      email: `${slug.replace(/-/g, '.')}@institute.example`,
      photo,
      bio: `${name} works in the ${department} department of the Northlight Institute, with a focus on ${topic}.`,
      updatedAt: '2026-01-15T08:00:00Z',
    };
  });
}

function createFile(
  media: MediaRegistry,
  category: string,
  slug: string,
  title: string,
  year: number,
  i: number,
): PublicationEntry['file'] {
  const { url, size } = media.pdf(`publications/${category}`, slug, title, `Northlight Institute (${year})`);
  const publishedAt = `${year}-06-01T09:00:00Z`;
  return {
    id: `publication-file-${i + 1}`,
    slug,
    title,
    updatedAt: publishedAt,
    status: 'PUBLISHED',
    category: PUBLICATION_FILE_CATEGORY,
    url,
    mimeType: 'application/pdf',
    size,
    publishedAt,
    description: `Full text of “${title}” (${year}).`,
  };
}
