/**
 * The sample content served by default: a realistic, deterministic institute site (about 40 news items,
 * 30 events, 30 publications, 20 courses, 12 projects, 30 documents, 25 people, 8 podcast episodes and
 * the 6 about pages), with every referenced media file registered.
 */
import type { Content } from './types.ts';
import { DOCUMENT_CATEGORIES, EVENT_CATEGORIES, PUBLICATION_CATEGORIES } from './categories.ts';
import { createCourses } from './courses.ts';
import { createDocuments } from './documents.ts';
import { createEvents } from './events.ts';
import { createMediaRegistry, type MediaOptions } from './media-refs.ts';
import { createNews } from './news.ts';
import { createPeople } from './people.ts';
import { createEpisodes } from './podcast.ts';
import { createPublications } from './publications.ts';
import { createProjects } from './research.ts';
import { HOME, PAGES, SITE } from './site.ts';

/**
 * Builds the sample content. Pure and deterministic: two calls return equal content. Takes a few
 * milliseconds; callers that serve it keep the result. `options.photos`: its images are camera photos
 * (media-refs.ts).
 */
export function loadSampleContent(options: MediaOptions = {}): Content {
  const media = createMediaRegistry(options);
  const people = createPeople(media);
  const publications = createPublications(media, people);
  return {
    site: SITE,
    home: HOME,
    people,
    news: createNews(media),
    eventCategories: EVENT_CATEGORIES,
    events: createEvents(media),
    publicationCategories: PUBLICATION_CATEGORIES,
    publications,
    courses: createCourses(people),
    projects: createProjects(media, people, publications),
    documentCategories: DOCUMENT_CATEGORIES,
    documents: createDocuments(media),
    episodes: createEpisodes(media),
    pages: PAGES,
    media: media.specs,
  };
}
